package org.mailrestore.backup;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestS3;

/** The source contract for backups in our format, on disk and in a bucket. */
class BackupSourceContractTest {

  /** Writes the reference mailboxes as a backup in format v1 (packed items, zstd blobs). */
  static void write(Path root, List<MailSourceContract.Mailbox> mailboxes) throws IOException {
    try (BackupWriter writer =
        BackupWriter.create(
            root,
            BackupManifest.current("contract", Instant.parse("2025-01-01T00:00:00Z"), null))) {
      writer.writeDomain(new Domain(MailSourceContract.DOMAIN, "active", Map.of()));
      for (MailSourceContract.Mailbox m : mailboxes) {
        Account account =
            new Account(
                m.user(),
                m.user() + "@" + MailSourceContract.DOMAIN,
                MailSourceContract.DOMAIN,
                null,
                "active",
                false,
                List.of(),
                Map.of());
        try (ItemSink sink = writer.openAccount(account, ItemLayout.PACKED)) {
          int next = SystemFolder.FIRST_USER_ID;
          Map<String, Integer> folders = new HashMap<>();
          folders.put("", SystemFolder.INBOX.id());
          for (String path : m.folders()) {
            int slash = path.lastIndexOf('/');
            int parent =
                slash < 0 ? SystemFolder.USER_ROOT.id() : folders.get(path.substring(0, slash));
            int id = next++;
            folders.put(path, id);
            sink.write(
                new Item(
                    id,
                    ItemType.FOLDER,
                    List.of(
                        Revision.builder(1, 0)
                            .folder(parent)
                            .name(path.substring(slash + 1))
                            .view("message")
                            .build())));
          }
          for (MailSourceContract.Message message : m.messages()) {
            BlobDigest digest = BlobDigest.ofContent(message.content());
            writer.writeBlob(digest, message.content(), BlobCompression.ZSTD);
            sink.write(
                new Item(
                    next++,
                    ItemType.MESSAGE,
                    List.of(
                        Revision.builder(1, 0)
                            .folder(folders.get(message.folder()))
                            .flags(message.flags())
                            .date(1_000)
                            .blob(message.content().length, digest)
                            .build())));
          }
        }
      }
    }
  }

  @Nested
  class OnDisk extends MailSourceContract {
    private Path root;

    @Override
    protected MailSource open(Path dir, List<Mailbox> mailboxes) throws IOException {
      root = dir.resolve("backup");
      write(root, mailboxes);
      return reopen();
    }

    /** Bob's account file does not decode: his account fails, alice's reads. */
    @Override
    protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes)
        throws IOException {
      root = dir.resolve("backup");
      write(root, mailboxes);
      Files.writeString(root.resolve("accounts/bob/account.json"), "{\"id\": \"bob\", \"name\":");
      return Optional.of(reopen());
    }

    @Override
    protected boolean remove(Path root) {
      ScratchSpace.deleteTree(root);
      return true;
    }

    @Override
    protected MailSource reopen() throws IOException {
      return BackupSourceKind.local(root)
          .open(
              new SourceContext(
                  S3Profiles.none(new SimpleMeterRegistry()),
                  StorageLimits.DEFAULT,
                  new SimpleMeterRegistry(),
                  null));
    }
  }

  @Nested
  class InABucket extends MailSourceContract {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final S3Profiles profiles = profiles(registry);
    private String location;
    private String bucket;

    private static S3Profiles profiles(SimpleMeterRegistry registry) {
      S3Server server = TestS3.server();
      return new S3Profiles(
          Map.of(
              "test",
              S3Settings.of(
                  server.endpoint(), server.region(), server.accessKey(), server.secretKey())),
          registry);
    }

    @AfterEach
    void closeClients() {
      profiles.close();
    }

    @Override
    protected MailSource open(Path dir, List<Mailbox> mailboxes) throws IOException {
      Path root = dir.resolve("backup");
      write(root, mailboxes);
      bucket = TestS3.createBucket();
      TestS3.upload(root, bucket, "nightly");
      location = "s3://" + bucket + "/nightly";
      return reopen();
    }

    @Override
    protected boolean remove(Path root) {
      TestS3.deletePrefix(bucket, "nightly/");
      return true;
    }

    /** Bob's account file does not decode: his account fails, alice's reads. */
    @Override
    protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes)
        throws IOException {
      Path root = dir.resolve("backup");
      write(root, mailboxes);
      Files.writeString(root.resolve("accounts/bob/account.json"), "{\"id\": \"bob\", \"name\":");
      String bucket = TestS3.createBucket();
      TestS3.upload(root, bucket, "nightly");
      location = "s3://" + bucket + "/nightly";
      return Optional.of(reopen());
    }

    @Override
    protected MailSource reopen() throws IOException {
      return SourceSpec.of(BackupSourceKind.NAME, location)
          .withProfile("test")
          .open(new SourceContext(profiles, StorageLimits.DEFAULT, registry, null));
    }
  }
}
