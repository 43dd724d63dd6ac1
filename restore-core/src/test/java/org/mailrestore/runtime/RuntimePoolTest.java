package org.mailrestore.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/** A runtime that connects by itself sizes its pool from its bounds and meters it. */
class RuntimePoolTest {

  @Test
  void poolIsSizedFromTheConcurrencyAndExportsItsMetrics() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Concurrency concurrency = new Concurrency(3, 2, 8);
    try (TestDatabase db = TestMariaDb.createDatabase();
        RestoreRuntime store =
            RestoreRuntime.builder()
                .database(db.jdbcUrl(), db.server().user(), db.server().password())
                .defaultTarget(MemoryKind.of("pool-" + UUID.randomUUID()))
                .concurrency(concurrency)
                .registry(registry)
                .build()) {
      // 3 accounts x 2 clusters, 2 for the bookkeeping, 1 the heartbeat keeps.
      assertThat(((HikariDataSource) store.dataSource()).getMaximumPoolSize()).isEqualTo(9);
      assertThat(registry.get("hikaricp.connections.max").tag("pool", "mailstore").gauge().value())
          .isEqualTo(9.0);
      assertThat(registry.get("hikaricp.connections.active").gauge()).isNotNull();
    }
  }
}
