package org.mailrestore.mailstore;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;

/** The target contract for the mailstore, with each kind of volume. */
class MailstoreContractTest {

  @Nested
  class LocalVolume extends MailTargetContract {
    @TempDir Path dir;

    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      return MailstoreKind.of(VolumeSpec.local("v", dir.toString())).open(context);
    }
  }

  @Nested
  class PackedCompressedLocalVolume extends MailTargetContract {
    @TempDir Path dir;

    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      return MailstoreKind.of(
              new VolumeSpec(
                  "v",
                  VolumeSpec.Kind.PACKED_LOCAL,
                  dir.toString(),
                  BlobCompression.ZSTD,
                  16,
                  0,
                  null))
          .open(context);
    }
  }

  /** Volumes in a bucket of the test S3 server, through a profile of their own. */
  abstract static class InABucket extends MailTargetContract {
    private S3Profiles profiles;

    abstract VolumeSpec.Kind kind();

    @Override
    protected MailTarget open(TargetContext context) throws Exception {
      S3Server server = TestS3.server();
      profiles =
          new S3Profiles(
              Map.of(
                  "test",
                  S3Settings.of(
                      server.endpoint(), server.region(), server.accessKey(), server.secretKey())),
              context.registry());
      TargetContext withS3 =
          new TargetContext(
              context.bookkeeping(),
              profiles,
              context.limits(),
              context.registry(),
              context.environment());
      return MailstoreKind.of(
              new VolumeSpec(
                  "v",
                  kind(),
                  "s3://" + TestS3.createBucket() + "/volume",
                  BlobCompression.NONE,
                  0,
                  0,
                  "test"))
          .open(withS3);
    }

    @AfterEach
    void closeClients() {
      if (profiles != null) {
        profiles.close();
      }
    }
  }

  @Nested
  class S3Volume extends InABucket {
    @Override
    VolumeSpec.Kind kind() {
      return VolumeSpec.Kind.S3;
    }
  }

  @Nested
  class PackedS3Volume extends InABucket {
    @Override
    VolumeSpec.Kind kind() {
      return VolumeSpec.Kind.PACKED_S3;
    }
  }
}
