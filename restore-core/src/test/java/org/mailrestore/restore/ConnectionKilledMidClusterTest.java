package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;

/**
 * The database connection is killed (as a DBA's {@code KILL} or a network cut does) inside a
 * cluster's transaction, just before it commits. The restore notices, waits, retries the cluster
 * and completes, with exactly the rows of an uninterrupted restore: nothing lost, nothing twice.
 */
public class ConnectionKilledMidClusterTest {

  /**
   * Kills the connection that is about to make the n-th commit once {@code armed} is set (the
   * runtime's own setup, its migrations, commits before), from another connection.
   */
  public static DataSource killingOnCommit(
      DataSource real, int n, AtomicInteger killed, AtomicBoolean armed) {
    AtomicInteger commits = new AtomicInteger();
    return InterceptedDataSource.of(
        real,
        (connection, method, args) -> {
          if (method.getName().equals("commit") && armed.get() && commits.incrementAndGet() == n) {
            long id;
            try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
              rs.next();
              id = rs.getLong(1);
            }
            try (Connection other = real.getConnection();
                Statement s = other.createStatement()) {
              s.execute("KILL CONNECTION " + id);
            }
            killed.incrementAndGet();
          }
        });
  }

  private static long count(DataSource ds, String table) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aKilledConnectionLosesOnlyItsClusterAndResumeCompletesExactly(@TempDir Path dir)
      throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(4).withItemsPerAccount(200), backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      AtomicInteger killed = new AtomicInteger();
      AtomicBoolean armed = new AtomicBoolean();
      DataSource flaky = killingOnCommit(f.database.dataSource(), 12, killed, armed);
      RestoreRuntime onFlaky = f.runtime(flaky, RestoreEngine.DEFAULT_LEASE_SECONDS);
      onFlaky.target(null);
      RestoreEngine engine = onFlaky.engine();
      armed.set(true);
      String id = engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
      OperationSummary result = engine.run(id);
      assertThat(killed).hasValue(1);
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(result.counts().itemsRestored()).isEqualTo(expected);
      assertThat(count(f.database.dataSource(), "restore_id_map")).isEqualTo(expected);
      assertThat(f.registry.get("mailrestore.db.retries").counter().count()).isPositive();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
      onFlaky.close();
    }
  }
}
