package org.mailrestore.restore.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * An account of 1,000,000 items is generated and decoded the way a restore reads it (folder-like
 * items first, then the content, each state selected) in a JVM capped at 256 MiB of heap (the build
 * runs this class alone with -Xmx256m): nothing may hold all items at once.
 */
class LargeAccountDecodeTest {

  private static final int ITEMS = 1_000_000;

  @Test
  void aMillionItemAccountDecodesIn256MibOfHeap(@TempDir Path dir) throws Exception {
    assertThat(Runtime.getRuntime().maxMemory())
        .as("this test must run with -Xmx256m (see restore-core/pom.xml)")
        .isLessThanOrEqualTo(256L << 20);
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withAccounts(1)
            .withItemsPerAccount(ITEMS)
            .withShares(false)
            .withMetadataOnly(true),
        backup);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      String account = reader.accountIds().get(0);
      Set<ItemType> containers =
          EnumSet.of(ItemType.FOLDER, ItemType.SEARCH_FOLDER, ItemType.MOUNTPOINT, ItemType.TAG);
      List<FolderGraph.Container> folders = new ArrayList<>();
      try (ItemStream stream = reader.items(account, containers)) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing)
              && item.type() != ItemType.TAG) {
            PointInTime.LATEST
                .select(item)
                .ifPresent(s -> folders.add(new FolderGraph.Container(item.id(), item.type(), s)));
          }
        }
      }
      FolderGraph.Plan plan = FolderGraph.plan(folders, java.util.Map.of(), java.util.Map.of());
      assertThat(plan.folders()).isNotEmpty();
      long content = 0;
      long live = 0;
      long bytes = 0;
      try (ItemStream stream =
          reader.items(account, EnumSet.complementOf(EnumSet.copyOf(containers)))) {
        while (stream.hasNext()) {
          ItemEntry entry = stream.next();
          assertThat(entry).isInstanceOf(ItemEntry.Decoded.class);
          Item item = ((ItemEntry.Decoded) entry).item();
          content++;
          var state = PointInTime.LATEST.select(item);
          if (state.isPresent()) {
            live++;
            bytes += state.get().size();
          }
        }
      }
      assertThat(content).isEqualTo(ITEMS);
      assertThat(live).isGreaterThan(ITEMS * 9L / 10);
      assertThat(bytes).isPositive();
    }
  }
}
