package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.mail.Revision;

class PointInTimeSelectTest {

  private static final Revision FIRST =
      Revision.builder(1, 0).validTo(10).folder(2).uuid("a").build();
  private static final Revision MOVED =
      Revision.builder(2, 10).validTo(20).folder(300).uuid("a").build();
  private static final Item DELETED_AT_20 =
      new Item(400, ItemType.MESSAGE, List.of(FIRST, MOVED, Revision.tombstone(3, 20)));

  private static Instant at(long ms) {
    return Instant.ofEpochMilli(ms);
  }

  @Test
  void theStateAtAnInstantIsTheRevisionInForceThen() {
    assertThat(new PointInTime(at(5)).select(DELETED_AT_20)).contains(FIRST);
    assertThat(new PointInTime(at(10)).select(DELETED_AT_20)).contains(MOVED);
    assertThat(new PointInTime(at(20)).select(DELETED_AT_20)).isEmpty();
    assertThat(PointInTime.LATEST.select(DELETED_AT_20)).isEmpty();
  }

  @Test
  void anUndeleteWindowBringsBackTheStateBeforeADeletionInsideIt() {
    assertThat(PointInTime.LATEST.withUndelete(at(15), at(25)).select(DELETED_AT_20))
        .contains(MOVED);
    assertThat(PointInTime.LATEST.withUndelete(at(20), null).select(DELETED_AT_20))
        .as("the start is inclusive")
        .contains(MOVED);
    assertThat(PointInTime.LATEST.withUndelete(at(5), at(20)).select(DELETED_AT_20))
        .as("the end is exclusive")
        .isEmpty();
    assertThat(PointInTime.LATEST.withUndelete(at(21), at(30)).select(DELETED_AT_20)).isEmpty();
    assertThat(new PointInTime(at(25)).withUndelete(at(18), null).select(DELETED_AT_20))
        .contains(MOVED);
    assertThat(new PointInTime(at(5)).withUndelete(at(1), null).select(DELETED_AT_20))
        .as("a live item is restored as it was, window or not")
        .contains(FIRST);
  }

  @Test
  void aWindowMustMakeSense() {
    assertThatThrownBy(() -> new PointInTime(null, null, at(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a start");
    assertThatThrownBy(() -> PointInTime.LATEST.withUndelete(at(5), at(5)))
        .hasMessageContaining("start before it ends");
    assertThatThrownBy(() -> new PointInTime(at(5)).withUndelete(at(6), null))
        .hasMessageContaining("after the restore's time");
  }
}
