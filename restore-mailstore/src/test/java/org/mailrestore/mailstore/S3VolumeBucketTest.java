package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.verify.Verifier;

/** A restore into an S3 volume whose bucket does not exist yet creates it (on a real S3 server). */
class S3VolumeBucketTest {

  @TempDir Path dir;

  @Test
  void theBucketOfANewS3VolumeIsCreated() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(40), backup);
    String bucket =
        "mr-new-" + UUID.randomUUID().toString().substring(0, 12).toLowerCase(Locale.ROOT);
    VolumeSpec volume =
        new VolumeSpec(
            "default",
            VolumeSpec.Kind.S3,
            "s3://" + bucket + "/volume",
            BlobCompression.NONE,
            0,
            0,
            "test");
    try (RestoreFixture f = new RestoreFixture(MailstoreKind.of(volume), true)) {
      OperationSummary s = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
