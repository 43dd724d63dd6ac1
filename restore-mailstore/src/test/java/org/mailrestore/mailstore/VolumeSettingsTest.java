package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.PathFence;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;

/** A volume keeps the packing and compression it was created with. */
class VolumeSettingsTest {

  @Test
  void aVolumeNamedWithTheWrongPackingOrCompressionIsAnErrorNotASilentPass(@TempDir Path dir)
      throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(20), backup);
    String location = dir.resolve("volume").toString();
    VolumeSpec gzip =
        new VolumeSpec(
            "default", VolumeSpec.Kind.LOCAL, location, BlobCompression.GZIP, 0, 0, null);
    try (RestoreFixture f =
        new RestoreFixture(
            MailstoreKind.of(gzip), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE)) {
      f.restore(RestoreRequest.local(backup.toString()));
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      VolumeSpec plain = VolumeSpec.local("default", location);
      VolumeSpec packed =
          new VolumeSpec(
              "default", VolumeSpec.Kind.PACKED_LOCAL, location, BlobCompression.GZIP, 0, 0, null);
      for (VolumeSpec wrong : List.of(plain, packed)) {
        try (RestoreRuntime runtime =
            RestoreRuntime.builder()
                .dataSource(f.database.dataSource())
                .defaultTarget(MailstoreKind.of(wrong))
                .build()) {
          assertThatThrownBy(() ->
                  runtime.verify(BackupSourceKind.local(backup), null, Verifier.Options.defaults()))
              .as("verify with %s", wrong)
              .hasMessageContaining("volume 'default' is registered");
        }
      }
    }
  }
}
