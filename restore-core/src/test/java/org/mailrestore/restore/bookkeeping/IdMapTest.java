package org.mailrestore.restore.bookkeeping;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/** The id map on the real MariaDB. */
class IdMapTest {

  @Test
  void theIdsRestoredInASpaceAreReadWholeAcrossPagesAndOnlyThem() throws Exception {
    try (TestDatabase db = TestMariaDb.createDatabase()) {
      EngineSchema.migrate(db.dataSource());
      IdSpace space = new IdSpace(7, 3);
      // More than two pages, in no order, from 0 up; ids of other spaces beside them.
      List<Integer> ids =
          new ArrayList<>(IntStream.range(0, 120_001).map(i -> i * 3).boxed().toList());
      Collections.shuffle(ids, new Random(5));
      try (Connection c = db.dataSource().getConnection()) {
        List<IdMap.Mapping> batch = new ArrayList<>();
        for (int id : ids) {
          batch.add(new IdMap.Mapping(id, id + 1));
          if (batch.size() == 10_000) {
            IdMap.insert(c, space, batch);
            batch.clear();
          }
        }
        IdMap.insert(c, space, batch);
        IdMap.insert(c, new IdSpace(7, 4), List.of(new IdMap.Mapping(1, 2)));
        IdMap.insert(c, new IdSpace(8, 3), List.of(new IdMap.Mapping(4, 5)));
      }

      int[] read = new IdMap(db.dataSource()).restoredIds(space);

      assertThat(read).hasSize(120_001);
      assertThat(read).isSorted();
      assertThat(read[0]).isZero();
      assertThat(read[read.length - 1]).isEqualTo(360_000);
      assertThat(IntStream.of(read).allMatch(i -> i % 3 == 0)).as("only this space's ids").isTrue();
      assertThat(new IdMap(db.dataSource()).restoredIds(new IdSpace(9, 9))).isEmpty();
    }
  }
}
