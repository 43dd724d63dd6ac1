package org.mailrestore.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.s3.S3Clients;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import software.amazon.awssdk.services.s3.S3Client;

/** The backup storage contract for every storage: a local directory and an S3 prefix. */
class BackupStoragesTest {

  static void write(Path root, Map<String, byte[]> files) throws IOException {
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      Path file = root.resolve(f.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, f.getValue());
    }
  }

  @Nested
  class Local extends BackupStorageContract {
    @TempDir Path root;

    @Override
    protected BackupStorage storage(Map<String, byte[]> files) throws IOException {
      write(root, files);
      return new LocalBackupStorage(root);
    }
  }

  @Nested
  class OnS3 extends BackupStorageContract {
    @TempDir Path staging;
    private S3Client client;

    @Override
    protected BackupStorage storage(Map<String, byte[]> files) throws IOException {
      write(staging, files);
      String bucket = TestS3.createBucket();
      TestS3.upload(staging, bucket, "backups/one");
      S3Server server = TestS3.server();
      client =
          S3Clients.create(
              S3Settings.of(
                  server.endpoint(), server.region(), server.accessKey(), server.secretKey()),
              null);
      return new S3BackupStorage(client, new S3Location(bucket, "backups/one"));
    }

    @AfterEach
    void close() {
      if (client != null) {
        client.close();
      }
    }
  }
}
