package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.s3.S3Clients;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceFormatException;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import software.amazon.awssdk.services.s3.S3Client;

/** A backup read from a bucket is the same backup as read from disk. */
class S3BackupStorageTest {

  @TempDir Path dir;

  static List<ItemEntry> entries(BackupReader reader, String account) throws IOException {
    List<ItemEntry> all = new ArrayList<>();
    try (ItemStream s = reader.items(account, EnumSet.allOf(ItemType.class))) {
      s.forEachRemaining(all::add);
    }
    return all;
  }

  @ParameterizedTest
  @EnumSource(ItemLayout.class)
  void readsTheSameBackupAsFromDisk(ItemLayout layout) throws Exception {
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(3)
            .withItemsPerAccount(60)
            .withLayout(layout)
            .withBlobCompression(BlobCompression.ZSTD),
        dir);
    String bucket = TestS3.createBucket();
    TestS3.upload(dir, bucket, "backups/nightly");
    S3Server server = TestS3.server();
    try (S3Client client =
            S3Clients.create(
                S3Settings.of(
                    server.endpoint(), server.region(), server.accessKey(), server.secretKey()),
                null);
        BackupReader local = BackupReader.open(new LocalBackupStorage(dir));
        BackupReader remote =
            BackupReader.open(
                new S3BackupStorage(client, new S3Location(bucket, "backups/nightly")))) {
      assertThat(remote.manifest()).isEqualTo(local.manifest());
      assertThat(remote.accountIds()).isEqualTo(local.accountIds());
      assertThat(remote.domains()).hasSameSizeAs(local.domains());
      assertThat(remote.distributionLists()).hasSameSizeAs(local.distributionLists());
      for (String account : local.accountIds()) {
        assertThat(remote.account(account)).isEqualTo(local.account(account));
        assertThat(remote.grants(account)).isEqualTo(local.grants(account));
        assertThat(remote.itemLayout(account)).isEqualTo(layout);
        List<ItemEntry> items = entries(remote, account);
        assertThat(items).isEqualTo(entries(local, account));
        for (ItemEntry e : items) {
          if (e instanceof ItemEntry.Decoded(Item item, String location, var passing)
              && item.latest().isPresent()
              && item.latest().get().digest() != null) {
            var rev = item.latest().get();
            try (var in = remote.blobs().openVerified(rev.digest(), rev.size())) {
              in.transferTo(java.io.OutputStream.nullOutputStream());
            }
          }
        }
      }
    }
  }

  @Test
  void aMissingManifestSaysSo() throws Exception {
    String bucket = TestS3.createBucket();
    S3Server server = TestS3.server();
    try (S3Client client =
        S3Clients.create(
            S3Settings.of(
                server.endpoint(), server.region(), server.accessKey(), server.secretKey()),
            null)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() ->
              BackupReader.open(new S3BackupStorage(client, new S3Location(bucket, "nothing"))))
          .isInstanceOf(SourceFormatException.class)
          .hasMessageContaining("not a mailrestore backup")
          .hasMessageContaining("s3://" + bucket + "/nothing/backup.json");
    }
  }

  @Test
  void theServersOwnWordsAreNotQuoted() throws Exception {
    S3Server server = TestS3.server();
    try (S3Client client =
        S3Clients.create(
            S3Settings.of(
                server.endpoint(), server.region(), server.accessKey(), server.secretKey()),
            null)) {
      S3BackupStorage storage =
          new S3BackupStorage(client, new S3Location("no-such-bucket-" + System.nanoTime(), "b"));
      // What S3 says in its own words may name hosts, keys and request ids: viewers read failures.
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> storage.list(""))
          .hasMessageContaining("S3 answered HTTP 404 (NoSuchBucket)")
          .satisfies(e ->
              org.assertj.core.api.Assertions.assertThat(e.getMessage())
                  .doesNotContainIgnoringCase("specified bucket")
                  .doesNotContain("Request ID")
                  .doesNotContain("Service: S3"));
    }
  }
}
