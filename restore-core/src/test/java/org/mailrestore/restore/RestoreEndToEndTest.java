package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/** A generated backup restored (the bookkeeping in a real MariaDB), then verified. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestoreEndToEndTest {

  @TempDir static Path dir;
  Path backup;
  RestoreFixture fixture;
  BackupGenerator.Report generated;
  OperationSummary first;

  @BeforeAll
  void restoreOnce() throws Exception {
    backup = dir.resolve("backup");
    generated =
        BackupGenerator.generate(
            GeneratorSpec.defaults().withAccounts(6).withItemsPerAccount(300).withSystemAccounts(1),
            backup);
    fixture = new RestoreFixture();
    first = fixture.restore(RestoreRequest.local(backup.toString()).withClusterSize(97));
  }

  @AfterAll
  void close() {
    fixture.close();
  }

  @Test
  void allThreePhasesRunAndEverythingIsRestored() {
    assertThat(first.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(first.counts().accounts()).isEqualTo(7);
    assertThat(first.counts().accountsDone()).isEqualTo(7);
    assertThat(first.counts().itemsFailed()).isZero();
    assertThat(first.counts().itemsRestored()).isGreaterThan(6 * 250);
    assertThat(first.provisioningMillis()).isNotNull();
    assertThat(first.dataMillis()).isNotNull();
    assertThat(first.sharesMillis()).isNotNull();
  }

  @Test
  void verifyFindsNoDifference() throws Exception {
    VerifyReport report = fixture.verify(backup, Verifier.Options.defaults());
    assertThat(report.differences()).isEmpty();
    assertThat(report.identical()).isTrue();
    assertThat(report.accounts()).isEqualTo(7);
    assertThat(report.items()).isEqualTo(first.counts().itemsRestored());
    assertThat(report.blobsChecked()).isGreaterThan(1000);
  }

  @Test
  void sharesAndMountpointsPointAtRestoredIds() throws Exception {
    RestoredStore store = fixture.store();
    long grants = 0;
    long mounts = 0;
    try (MailSource held = store.asSource()) {
      for (String name : StoreContents.accounts(fixture)) {
        ProvisionedAccount account = store.account(name).orElseThrow().ref();
        grants += store.grants(account).size();
        for (Revision.MountTarget mount : store.mounts(account).values()) {
          Account owner = ((Parsed.Ok<Account>) held.account(mount.ownerAccountId())).value();
          ProvisionedAccount ownerRef = store.account(owner.name()).orElseThrow().ref();
          assertThat(store.items(ownerRef, List.of(mount.remoteFolderId())))
              .as("the folder a mountpoint of %s points at", name)
              .containsKey(mount.remoteFolderId());
          mounts++;
        }
      }
    }
    assertThat(grants).isPositive();
    assertThat(mounts)
        .isPositive()
        .isEqualTo(
            StoreContents.held(fixture).stream()
                .filter(h -> h.type() == ItemType.MOUNTPOINT)
                .count());
  }

  @Test
  void aSecondRunSkipsEverythingAndAddsNothing() throws Exception {
    TreeSet<String> items = StoreContents.items(fixture);
    TreeSet<String> tags = StoreContents.tags(fixture);
    long mapped = fixture.count("SELECT COUNT(*) FROM restore_id_map");
    OperationSummary again = fixture.restore(RestoreRequest.local(backup.toString()));
    assertThat(again.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(again.counts().itemsRestored()).isZero();
    assertThat(again.counts().itemsSkipped()).isEqualTo(first.counts().itemsRestored());
    assertThat(StoreContents.items(fixture)).isEqualTo(items);
    assertThat(StoreContents.tags(fixture)).isEqualTo(tags);
    assertThat(fixture.count("SELECT COUNT(*) FROM restore_id_map")).isEqualTo(mapped);
    assertThat(fixture.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
  }

  @Test
  void aMissingBlobFailsThatItemOnly(@TempDir Path other) throws Exception {
    Path copy = other.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(5).withItemsPerAccount(120), copy);
    Item victim = firstMessage(copy);
    Path blob;
    try (Stream<Path> files = Files.walk(copy.resolve("blobs"))) {
      blob =
          files
              .filter(p ->
                  p.getFileName()
                      .toString()
                      .startsWith(victim.latest().orElseThrow().digest().hex()))
              .findFirst()
              .orElseThrow();
    }
    Files.delete(blob);
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary result = f.restore(RestoreRequest.local(copy.toString()));
      assertThat(result.state()).isEqualTo(OperationState.PARTIAL);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(result.id(), 0, 100);
      Set<String> failedKeys =
          failures.stream()
              .map(r -> Verifier.Options.key(r.sourceAccountId(), r.itemId()))
              .collect(Collectors.toSet());
      // Every item pointing at that blob failed (a shared list message fails in each mailbox).
      assertThat(failures)
          .isNotEmpty()
          .allSatisfy(r -> {
            assertThat(r.reason()).isEqualTo("BLOB_MISSING");
            assertThat(r.detail()).contains(victim.latest().orElseThrow().digest().hex());
          });
      assertThat(result.counts().itemsFailed()).isEqualTo(failures.size());
      VerifyReport report =
          f.verify(copy, Verifier.Options.defaults().withKnownFailures(failedKeys));
      assertThat(report.differences()).isEmpty();
      assertThat(report.excused()).isEqualTo(failures.size());
    }
  }

  private static Item firstMessage(Path backup) throws IOException {
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup));
        ItemStream stream = reader.items(reader.accountIds().get(0), Set.of(ItemType.MESSAGE))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing)
            && item.latest().isPresent()) {
          return item;
        }
      }
    }
    throw new IllegalStateException("no message");
  }

  @Test
  void anUnknownFormatVersionFailsTheOperationWithAClearMessage(@TempDir Path other)
      throws Exception {
    Files.writeString(
        other.resolve("backup.json"),
        "{\"format\":\"mailrestore-backup\",\"version\":\"9.1\",\"serverId\":\"x\"}");
    OperationSummary result = fixture.restore(RestoreRequest.local(other.toString()));
    assertThat(result.state()).isEqualTo(OperationState.FAILED);
    assertThat(result.message()).contains("format version 9.1").contains("1.x");
  }
}
