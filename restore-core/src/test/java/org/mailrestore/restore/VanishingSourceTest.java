package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.testkit.ScratchSpace;
import org.mailrestore.testkit.TestS3;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * A source removed, or replaced by another, while a restore reads it (issue 41): for every source
 * kind the operation ends PARTIAL or FAILED, never COMPLETED; the accounts read after the change
 * fail with {@code SOURCE_CHANGED} (or as unreadable), and an account that ends RESTORED holds
 * every message of its source. None is taken for an empty mailbox.
 */
class VanishingSourceTest {

  /** The kinds of source, each laid out with a few accounts (mbox: one account). */
  enum Kind {
    BACKUP_LOCAL,
    BACKUP_S3,
    MAILDIR,
    MBOX,
    ZIMBRA_TGZ
  }

  /** What happens to the source mid-run. */
  enum Change {
    REMOVED,
    REPLACED
  }

  @TempDir Path dir;

  /** Where a kind's source lies: a directory, or a bucket prefix. */
  private record Laid(SourceSpec spec, Path root, String bucket) {}

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aSourceRemovedMidRunIsNotTakenForEmptyMailboxes(Kind kind) throws Exception {
    run(kind, Change.REMOVED);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aSourceReplacedMidRunDoesNotEndCompleted(Kind kind) throws Exception {
    run(kind, Change.REPLACED);
  }

  private void run(Kind kind, Change change) throws Exception {
    Laid laid = layOut(kind, dir.resolve("source"), 1);
    Map<String, Integer> expected = messagesByAccount(laid.spec());
    try (RestoreFixture f =
        new RestoreFixture(MemoryKind.of("vanishing-" + UUID.randomUUID()), true)) {
      // Small clusters: progress shows (and the change lands) while accounts are being read.
      String id = f.engine.submit(RestoreRequest.of(laid.spec()).withClusterSize(50), null);
      f.engine.bookkeeping().throttles().set(id, Pace.of(400.0, null));
      CompletableFuture<OperationSummary> running = f.runInBackground(id);
      long total = expected.values().stream().mapToLong(Integer::longValue).sum();
      awaitRestored(f, id, total / 4);
      switch (change) {
        case REMOVED -> remove(laid);
        case REPLACED -> {
          remove(laid);
          layOut(kind, laid.root(), 2);
        }
      }
      OperationSummary ended = running.get(3, TimeUnit.MINUTES);

      assertThat(ended.state())
          .as("%s %s mid-run: %s", kind, change, ended.message())
          .isIn(OperationState.PARTIAL, OperationState.FAILED);
      List<String> reasons = new ArrayList<>();
      f.engine.bookkeeping().failures().list(id, 0, 1000).forEach(r -> reasons.add(r.reason()));
      assertThat(reasons).as("the failures say the source changed").contains("SOURCE_CHANGED");
      Map<String, Long> held = heldByAccount(f);
      for (AccountProgress account : f.engine.bookkeeping().accounts().list(id)) {
        if (account.state() == AccountState.RESTORED) {
          assertThat(held.getOrDefault(account.accountName(), 0L))
              .as("account %s ended RESTORED: every message of its source", account.accountName())
              .isEqualTo(expected.get(account.accountName()).longValue());
        } else {
          assertThat(account.state())
              .as("account %s read after the change", account.accountName())
              .isIn(AccountState.FAILED, AccountState.PARTIAL);
        }
      }
    }
  }

  /** Waits until the restore has restored at least {@code items} items in all. */
  private static void awaitRestored(RestoreFixture f, String id, long items) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      long restored =
          f.engine.bookkeeping().accounts().list(id).stream()
              .mapToLong(AccountProgress::itemsRestored)
              .sum();
      if (restored >= items) {
        return;
      }
      assertThat(System.nanoTime())
          .as("%d items restored in 2 minutes", items)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static Map<String, Long> heldByAccount(RestoreFixture f) throws Exception {
    Map<String, Long> held = new HashMap<>();
    for (StoreContents.Held h : StoreContents.held(f)) {
      if (h.type() == ItemType.MESSAGE) {
        held.merge(h.account(), 1L, Long::sum);
      }
    }
    return held;
  }

  /** Each account's messages as a restore of the latest state takes them, read beforehand. */
  private static Map<String, Integer> messagesByAccount(SourceSpec spec) throws Exception {
    Map<String, Integer> counts = new HashMap<>();
    PointInTime latest = RestoreRequest.of(spec).pointInTime();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (MailSource source =
        spec.open(
            new SourceContext(
                new S3Profiles(Map.of("test", RestoreFixture.testProfile()), registry),
                StorageLimits.DEFAULT,
                registry,
                null))) {
      for (String id : source.accountIds()) {
        if (source.account(id) instanceof Parsed.Ok<Account>(Account account, String at)) {
          int messages = 0;
          try (ItemStream items = source.items(id, EnumSet.of(ItemType.MESSAGE))) {
            while (items.hasNext()) {
              if (items.next() instanceof ItemEntry.Decoded d
                  && latest.select(d.item()).isPresent()) {
                messages++;
              }
            }
          }
          counts.put(account.name(), messages);
        }
      }
    }
    return counts;
  }

  private static void remove(Laid laid) {
    if (laid.bucket() != null) {
      TestS3.deletePrefix(laid.bucket(), "backup/");
    } else {
      ScratchSpace.deleteTree(laid.root());
    }
  }

  /**
   * Lays a source of the kind out at {@code root} (or under a bucket), from generation {@code n}.
   */
  private Laid layOut(Kind kind, Path root, int n) throws Exception {
    Path backup = dir.resolve("generated-" + n);
    if (!Files.exists(backup)) {
      BackupGenerator.generate(
          GeneratorSpec.defaults()
              .withSeed(40 + n)
              .withAccounts(4)
              .withDomains(1)
              .withItemsPerAccount(200)
              .withLargeRate(0)
              .withShares(false),
          backup);
    }
    return switch (kind) {
      case BACKUP_LOCAL -> {
        copyTree(backup, root);
        yield new Laid(BackupSourceKind.local(root), root, null);
      }
      case BACKUP_S3 -> {
        String bucket = n == 1 ? TestS3.createBucket() : lastBucket;
        lastBucket = bucket;
        TestS3.upload(backup, bucket, "backup");
        yield new Laid(
            SourceSpec.of(BackupSourceKind.NAME, "s3://" + bucket + "/backup").withProfile("test"),
            root,
            bucket);
      }
      case MAILDIR -> {
        exportEach(backup, "maildir", root, true);
        yield new Laid(MaildirSourceKind.ofDomains(root, "auto"), root, null);
      }
      case ZIMBRA_TGZ -> {
        exportEach(backup, "zimbra-tgz", root, false);
        yield new Laid(ZimbraTgzKind.local(root), root, null);
      }
      case MBOX -> {
        Files.createDirectories(root);
        byte[][] messages = new byte[600][];
        for (int i = 0; i < messages.length; i++) {
          String text =
              "From: a@example.org\r\nSubject: generation "
                  + n
                  + " message "
                  + i
                  + "\r\nMessage-ID: <"
                  + n
                  + "."
                  + i
                  + "@example.org>\r\n\r\nbody "
                  + i
                  + "\r\n";
          messages[i] =
              MboxWriter.mboxrd(
                  text.getBytes(StandardCharsets.UTF_8), "From - Mon May 14 23:39:00 2001");
        }
        Files.write(root.resolve("Inbox"), MboxWriter.concat(messages));
        yield new Laid(MboxSourceKind.of(root, "alice@example.org", "mboxrd", "tags"), root, null);
      }
    };
  }

  private String lastBucket;

  /** Exports every account of a generated backup in a format (Maildir: a tree of domains). */
  private static void exportEach(Path backup, String format, Path root, boolean perAccount)
      throws Exception {
    ExportFormat export = ExportFormat.installed().require(format);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      List<String> ids = reader.accountIds();
      if (!perAccount) {
        export.export(reader, ids, root);
        return;
      }
      for (String id : ids) {
        Account account = ((Parsed.Ok<Account>) reader.account(id)).value();
        String[] address = account.name().split("@");
        export.export(reader, List.of(id), root.resolve(address[1]).resolve(address[0]));
      }
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
