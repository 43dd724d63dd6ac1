package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.PathFence;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.StoreContents;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.verify.Verifier;

/**
 * One operation into two targets (decision 0034): the in-memory target takes the contacts, the
 * mailstore everything else. One journal, one report, one resume: nothing is lost or doubled, a
 * re-run adds nothing, verify reads both back as one.
 */
class ComposedTargetsTest {

  @TempDir Path dir;

  private Path backup() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(4).withItemsPerAccount(400).withSystemAccounts(1),
        backup);
    return backup;
  }

  private RestoreFixture fixture(String store) throws Exception {
    TargetSpec mailstore =
        MailstoreKind.of(VolumeSpec.local("default", dir.resolve("volume").toString()));
    TargetSpec contacts = MemoryKind.of(store, Set.of(ItemType.CONTACT));
    return new RestoreFixture(
        List.of(mailstore, contacts), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE);
  }

  /** The live items of a type over every account of the backup. */
  private static long live(Path backup, ItemType type) throws Exception {
    long count = 0;
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        try (ItemStream items = reader.items(id, EnumSet.of(type))) {
          while (items.hasNext()) {
            if (items.next() instanceof ItemEntry.Decoded(Item item, String at, var passing)
                && item.latest().isPresent()) {
              count++;
            }
          }
        }
      }
    }
    return count;
  }

  @Test
  void contactsGoToOneTargetAndTheRestToTheOtherInOneOperation() throws Exception {
    Path backup = backup();
    long contacts = live(backup, ItemType.CONTACT);
    assertThat(contacts).isPositive();
    try (RestoreFixture f = fixture("contacts-" + UUID.randomUUID())) {
      OperationSummary first = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(first.state()).as(first.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(f.count("SELECT COUNT(*) FROM mail_item WHERE type = 6"))
          .as("no contact in the mailstore")
          .isZero();
      assertThat(f.count("SELECT COUNT(*) FROM mail_item WHERE type = 5"))
          .as("the messages are in the mailstore")
          .isEqualTo(live(backup, ItemType.MESSAGE));
      assertThat(f.memoryStore().countOf(ItemType.CONTACT))
          .as("every contact is in the other target")
          .isEqualTo(contacts);
      assertThat(f.memoryStore().countOf(ItemType.MESSAGE)).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      var items = StoreContents.items(f);
      OperationSummary again = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(again.counts().itemsRestored()).as("a re-run adds nothing").isZero();
      assertThat(again.counts().itemsSkipped()).isEqualTo(first.counts().itemsRestored());
      assertThat(StoreContents.items(f)).isEqualTo(items);
    }
  }

  @Test
  void anOperationStoppedMidwayResumesIntoBothWithoutLossOrDuplicate() throws Exception {
    Path backup = backup();
    try (RestoreFixture f = fixture("resume-" + UUID.randomUUID())) {
      String id =
          f.engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(30), null);
      f.engine.bookkeeping().throttles().set(id, Pace.of(400.0, null));
      CompletableFuture<OperationSummary> run = f.runInBackground(id);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (f.count("SELECT COUNT(*) FROM restore_cluster") < 6) {
        assertThat(System.nanoTime()).as("the restore progresses").isLessThan(deadline);
        Thread.sleep(10);
      }
      f.engine.cancel(id);
      assertThat(run.get(60, TimeUnit.SECONDS).state()).isEqualTo(OperationState.CANCELLED);
      f.engine.bookkeeping().throttles().set(id, Pace.UNLIMITED);
      OperationSummary resumed = f.engine.run(id);
      assertThat(resumed.state()).as(resumed.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(f.memoryStore().countOf(ItemType.CONTACT))
          .isEqualTo(live(backup, ItemType.CONTACT));
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
