package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * Two backups whose accounts have the same addresses but are different accounts (other ids, other
 * items with colliding item ids) merged into one target: the second must add all of its items.
 * Keying the id map by mailbox alone would skip the colliding ids and lose them.
 */
public class MergeOfDifferentSourcesTest {

  @Test
  void itemIdsOfDifferentSourceAccountsNeverCollide(@TempDir Path dir) throws Exception {
    GeneratorSpec spec = GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(80);
    Path first = dir.resolve("first");
    Path second = dir.resolve("second");
    BackupGenerator.generate(spec.withSeed(1), first);
    BackupGenerator.generate(spec.withSeed(2), second);
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary a = f.restore(RestoreRequest.local(first.toString()));
      OperationSummary b = f.restore(RestoreRequest.local(second.toString()));
      assertThat(a.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(b.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(a.counts().itemsRestored()).isEqualTo(liveItems(first));
      assertThat(b.counts().itemsRestored() + b.counts().itemsSkipped())
          .isEqualTo(liveItems(second));
      // Only tags of the same name are shared; every folder and item of the second is added.
      assertThat(b.counts().itemsSkipped()).isLessThan(20);
      OperationSummary again = f.restore(RestoreRequest.local(second.toString()));
      assertThat(again.counts().itemsRestored()).isZero();
      assertThat(again.counts().itemsSkipped())
          .isEqualTo(b.counts().itemsRestored() + b.counts().itemsSkipped());
    }
  }

  /** Items a restore of the latest state brings back: live, and not a system folder. */
  public static long liveItems(Path backup) throws IOException {
    return liveItems(backup, null);
  }

  /** The same for one account ({@code accountId}), or all when null. */
  public static long liveItems(Path backup, String accountId) throws IOException {
    long count = 0;
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        if (accountId != null && !accountId.equals(id)) {
          continue;
        }
        try (ItemStream stream = reader.items(id, EnumSet.allOf(ItemType.class))) {
          while (stream.hasNext()) {
            if (stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing)
                && item.latest().isPresent()
                && SystemFolder.byId(item.id()) == null) {
              count++;
            }
          }
        }
      }
    }
    return count;
  }
}
