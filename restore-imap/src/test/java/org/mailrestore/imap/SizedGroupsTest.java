package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A read-back fetches bodies in groups bounded by count and bytes: a verify asks for a thousand
 * messages at once, and a FETCH's answer is held whole.
 */
class SizedGroupsTest {

  @Test
  void groupsHoldAtMostTwoHundredMessagesAndThirtyTwoMebibytesButOneLargerMessageAlone() {
    List<Long> uids = new ArrayList<>();
    Map<Long, Long> sizes = new HashMap<>();
    for (long uid = 1; uid <= 1000; uid++) {
      uids.add(uid);
      sizes.put(uid, uid % 100 == 0 ? 25L << 20 : 20_000L); // every hundredth an attachment
    }
    uids.add(1001L);
    sizes.put(1001L, 200L << 20); // larger than a group: alone
    uids.add(1002L); // no size given: counted as nothing

    List<List<Long>> groups =
        SizedGroups.of(
            uids,
            u -> sizes.getOrDefault(u, 0L),
            ImapReadBack.FETCH_CHUNK,
            ImapReadBack.FETCH_BYTES);

    assertThat(groups.stream().flatMap(List::stream).toList())
        .as("every message once, in order")
        .isEqualTo(uids);
    for (List<Long> group : groups) {
      long bytes = group.stream().mapToLong(u -> sizes.getOrDefault(u, 0L)).sum();
      assertThat(group).hasSizeLessThanOrEqualTo(200);
      assertThat(group.size() == 1 || bytes <= ImapReadBack.FETCH_BYTES)
          .as("group %s of %d bytes", group, bytes)
          .isTrue();
    }
    assertThat(groups).contains(List.of(1001L));
    assertThat(SizedGroups.of(List.<Long>of(), u -> 1L, 200, 1L)).isEmpty();
    assertThat(SizedGroups.of(List.of(1L, 2L, 3L), u -> 0L, 1, 1L))
        .as("one at a time: each alone")
        .containsExactly(List.of(1L), List.of(2L), List.of(3L));
  }
}
