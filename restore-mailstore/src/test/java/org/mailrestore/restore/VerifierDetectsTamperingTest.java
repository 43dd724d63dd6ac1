package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/** Verify is only worth something if it notices: each kind of damage must show up. */
class VerifierDetectsTamperingTest {

  @Test
  void everyKindOfDamageIsReported(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(60), backup);
    try (RestoreFixture f = new RestoreFixture(dir.resolve("volume"))) {
      f.restore(RestoreRequest.local(backup.toString()));
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      try (Connection c = f.database.dataSource().getConnection();
          Statement s = c.createStatement()) {
        // A flag flipped, a subject changed, an item duplicated, a grant dropped.
        s.executeUpdate(
            "UPDATE mail_item SET flags = flags ^ 32 WHERE type = 5 ORDER BY mailbox_id, id LIMIT 1");
        s.executeUpdate(
            "UPDATE mail_item SET subject = 'changed' WHERE type = 5 ORDER BY mailbox_id, id DESC LIMIT 1");
        s.executeUpdate(
            "INSERT INTO mail_item (mailbox_id, id, type, folder_id, date, size, flags)"
                + " SELECT mailbox_id, 900000, type, folder_id, date, size, flags FROM mail_item"
                + " WHERE type = 5 LIMIT 1");
        s.executeUpdate("DELETE FROM acl LIMIT 1");
      }
      // A blob's bytes damaged on disk.
      Path blob;
      try (Stream<Path> files = Files.walk(dir.resolve("volume"))) {
        blob = files.filter(Files::isRegularFile).findFirst().orElseThrow();
      }
      byte[] bytes = Files.readAllBytes(blob);
      bytes[bytes.length / 2] ^= 1;
      Files.write(blob, bytes);

      VerifyReport report = f.verify(backup, Verifier.Options.defaults());
      assertThat(report.identical()).isFalse();
      assertThat(report.differences())
          .anySatisfy(d -> assertThat(d).contains("flags is"))
          .anySatisfy(d -> assertThat(d).contains("subject is changed"))
          .anySatisfy(d -> assertThat(d).contains("the backup accounts for"))
          .anySatisfy(d -> assertThat(d).contains("grants differ"))
          .anySatisfy(d -> assertThat(d).contains("hashing to"));
    }
  }

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
    try (RestoreFixture f = new RestoreFixture(gzip, false)) {
      f.restore(RestoreRequest.local(backup.toString()));
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      VolumeSpec plain = VolumeSpec.local("default", location);
      VolumeSpec packed =
          new VolumeSpec(
              "default", VolumeSpec.Kind.PACKED_LOCAL, location, BlobCompression.GZIP, 0, 0, null);
      for (VolumeSpec wrong : java.util.List.of(plain, packed)) {
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
