package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

class MailstorePoolTest {

  @Test
  void poolIsSizedFromTheConcurrencyAndExportsItsMetrics(@TempDir Path dir) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Concurrency concurrency = new Concurrency(3, 2, 8);
    try (TestDatabase db = TestMariaDb.createDatabase();
        Mailstore store =
            new Mailstore(
                db.jdbcUrl(),
                db.server().user(),
                db.server().password(),
                new Mailstore.VolumeSpec("v", dir, BlobCompression.NONE, 0),
                concurrency,
                registry)) {
      assertThat(store.dataSource.getMaximumPoolSize()).isEqualTo(8);
      assertThat(registry.get("hikaricp.connections.max").tag("pool", "mailstore").gauge().value())
          .isEqualTo(8.0);
      assertThat(registry.get("hikaricp.connections.active").gauge()).isNotNull();
    }
  }
}
