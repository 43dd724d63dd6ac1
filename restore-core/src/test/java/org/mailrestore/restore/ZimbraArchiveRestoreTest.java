package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.verify.Verifier;
import org.mailrestore.zimbra.ArchiveBuilder;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * Zimbra account archives through the engine: a store exported as archives restores to the same
 * store; a broken or hostile archive restores every good item and records each bad one once.
 */
class ZimbraArchiveRestoreTest {

  @TempDir Path dir;

  @Test
  void aStoreExportedAsZimbraArchivesRestoresToTheSameStore() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(300).withShares(false),
        backup);
    Path archives = dir.resolve("archives");
    try (RestoreFixture first = new RestoreFixture();
        RestoreFixture second = new RestoreFixture()) {
      assertThat(first.restore(RestoreRequest.local(backup.toString())).state())
          .isEqualTo(OperationState.COMPLETED);
      List<String> accounts =
          first
              .engine
              .bookkeeping()
              .accounts()
              .list(first.engine.operations().list(null, 0, 1).get(0))
              .stream()
              .map(AccountProgress::accountName)
              .toList();
      ExportReport report =
          first.runtime.export(
              ExportFormat.installed().require(ZimbraTgzKind.NAME), null, accounts, archives);
      assertThat(report.problems()).isEmpty();
      assertThat(report.items()).isPositive();
      try (Stream<Path> files = Files.list(archives)) {
        assertThat(files.map(p -> p.getFileName().toString()).toList())
            .containsExactlyInAnyOrderElementsOf(accounts.stream().map(a -> a + ".tgz").toList());
      }

      OperationSummary again = second.restore(RestoreRequest.of(ZimbraTgzKind.local(archives)));
      assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.items(second)).isEqualTo(StoreContents.items(first));
      assertThat(StoreContents.tags(second)).isEqualTo(StoreContents.tags(first));
      assertThat(
              second
                  .verify(ZimbraTgzKind.local(archives), Verifier.Options.defaults())
                  .differences())
          .isEmpty();

      // a second run adds nothing
      OperationSummary rerun = second.restore(RestoreRequest.of(ZimbraTgzKind.local(archives)));
      assertThat(rerun.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.items(second)).isEqualTo(StoreContents.items(first));
    }
  }

  @Test
  void aTruncatedArchiveRestoresEveryCompleteItemAndRecordsTheCutOnce() throws Exception {
    ArchiveBuilder b = new ArchiveBuilder().folder(257, "/Work");
    Random random = new Random(5);
    for (int i = 0; i < 30; i++) {
      byte[] noise = new byte[10_000];
      random.nextBytes(noise);
      byte[] message = ArchiveBuilder.concat(ArchiveBuilder.mail("m" + i, ""), noise);
      b.message(300 + i, i % 2 == 0 ? "/Inbox" : "/Work", message, "", null);
    }
    byte[] tgz = b.tgz();
    byte[] cut = Arrays.copyOf(tgz, tgz.length / 2);
    Path file = dir.resolve("alice@example.org.tgz");
    Files.write(file, cut);
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary = f.restore(RestoreRequest.of(ZimbraTgzKind.local(file)));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(summary.id(), 0, 100);
      assertThat(failures)
          .filteredOn(r -> r.location().contains("at byte " + cut.length))
          .singleElement()
          .satisfies(r -> assertThat(r.detail()).contains("ends early"));
      long messages = StoreContents.messages(f);
      assertThat(messages).isBetween(10L, 16L);
      assertThat(messages + failures.size() - 1)
          .as("each message restored or failed")
          .isLessThanOrEqualTo(30);
    }
  }

  @Test
  void aHostileArchiveFailsItsBadItemsAloneAndWritesNothingOutsideTheTarget() throws Exception {
    Map<String, Object> notJson = ArchiveBuilder.item(301, 5, "/Inbox");
    Map<String, Object> newer = ArchiveBuilder.item(302, 5, "/Inbox");
    newer.put("Ver", 11);
    byte[] good = ArchiveBuilder.mail("good", "g");
    Path archiveDir = dir.resolve("in");
    Path file =
        new ArchiveBuilder()
            .message(300, "/Inbox", good, "u", "keep")
            .entry(
                "Inbox/0000000301-x.eml.meta",
                "{not json".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .meta("Inbox/0000000302-x.eml.meta", newer)
            .message(303, "/Inbox/../../../tmp/escape", ArchiveBuilder.mail("x", "x"), "", null)
            .message(300, "/Inbox", ArchiveBuilder.mail("duplicate", "d"), "", null)
            .meta("/absolute/0000000304-x.eml.meta", notJson)
            .message(399, "/Inbox", ArchiveBuilder.mail("good too", "g2"), "", null)
            .write(archiveDir.resolve("alice@example.org.tgz"));
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary = f.restore(RestoreRequest.of(ZimbraTgzKind.local(file)));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(StoreContents.messages(f)).isEqualTo(2);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(summary.id(), 0, 100);
      assertThat(failures).hasSize(5);
      assertThat(failures)
          .allSatisfy(r -> {
            assertThat(r.detail()).isNotBlank();
            assertThat(r.location()).contains("alice@example.org.tgz");
          });
      assertThat(failures)
          .extracting(FailureRecord::detail)
          .anySatisfy(d -> assertThat(d).contains("not valid JSON"))
          .anySatisfy(d -> assertThat(d).contains("version 11"))
          .anySatisfy(d -> assertThat(d).contains("\"..\""))
          .anySatisfy(d -> assertThat(d).contains("same id 300"))
          .anySatisfy(d -> assertThat(d).contains("absolute"));
      try (Stream<Path> files = Files.walk(archiveDir)) {
        assertThat(files.filter(Files::isRegularFile).toList()).containsExactly(file);
      }
      assertThat(Files.exists(dir.resolve("tmp"))).isFalse();
    }
  }
}
