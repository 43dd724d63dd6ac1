package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.ItemType;

/**
 * The {@link HostileBackup}: the restore ends PARTIAL, its failure list names each bad item with
 * its reason, and every good item is restored.
 */
class HostileBackupTest {

  @TempDir Path dir;

  @Test
  void eachBadRecordFailsAloneWithItsReason() throws Exception {
    Path backup = dir.resolve("backup");
    Map<Integer, String> expected = HostileBackup.write(backup);

    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary = f.restore(RestoreRequest.local(backup.toString()));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(summary.counts().itemsRestored())
          .as("the good items and the repaired ones")
          .isEqualTo(HostileBackup.GOOD_ITEMS);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(summary.id(), 0, 100);
      Map<Integer, String> actual = new TreeMap<>();
      for (FailureRecord failure : failures) {
        assertThat(failure.detail()).as("a reason a person can act on").isNotBlank();
        assertThat(failure.location()).isNotBlank();
        actual.put(failure.itemId(), failure.reason());
      }
      assertThat(actual).isEqualTo(expected);
      assertThat(StoreContents.held(f))
          .filteredOn(h -> h.type() == ItemType.MESSAGE && h.state().digest() != null)
          .hasSize(HostileBackup.GOOD_MESSAGES);
    }
  }
}
