package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.restore.run.DatabaseRetry;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.verify.Verifier;

/**
 * Another instance takes an account over while this one writes a cluster of it, and its rows refuse
 * this one's (a duplicate key, as a mailbox's ids do): this instance leaves the account rather than
 * failing it, and takes it up again once the other's lease lapses; the restore ends exact (decision
 * 0052). The other instance is played by SQL on the real MariaDB, on a connection of its own (not
 * one of the pool's, which the restore's clusters and leases share): it claims the account and
 * never renews.
 */
class AccountTakenOverMidClusterTest {

  private static final int LEASE_SECONDS = 3;

  @Test
  void aWriteRefusedAfterATakeOverLeavesTheAccountInsteadOfFailingIt(@TempDir Path dir)
      throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(1).withItemsPerAccount(200), backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      AtomicBoolean armed = new AtomicBoolean();
      AtomicInteger refused = new AtomicInteger();
      AtomicReference<Exception> takeOverFailed = new AtomicReference<>();
      RestoreRuntime runtime =
          f.runtime(
              takenOverAtThirdCluster(f.database, armed, refused, takeOverFailed),
              RestoreEngine.DEFAULT_LEASE_SECONDS);
      runtime.target(null);
      RestoreEngine engine = runtime.engine();
      String id = engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
      armed.set(true);
      OperationSummary result = engine.run(id);
      assertThat(takeOverFailed.get()).as("the other instance's claim").isNull();
      assertThat(result.state()).as(result.toString()).isEqualTo(OperationState.COMPLETED);
      assertThat(refused).as("clusters refused after the take-over").hasValue(1);
      assertThat(result.counts().itemsRestored()).isEqualTo(expected);
      assertThat(result.counts().itemsFailed()).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
      runtime.close();
    }
  }

  /**
   * At the third cluster's id mappings: another instance claims the account (its lease for {@value
   * #LEASE_SECONDS} s, never renewed), and the insert is refused as its rows would refuse it. This
   * instance's own leases are the default's, so that a slow machine does not let them lapse first.
   */
  private static DataSource takenOverAtThirdCluster(
      TestDatabase database,
      AtomicBoolean armed,
      AtomicInteger refused,
      AtomicReference<Exception> takeOverFailed) {
    AtomicInteger mappings = new AtomicInteger();
    return InterceptedDataSource.of(
        database.dataSource(),
        (connection, method, args) -> {
          if (method.getName().equals("prepareStatement")
              && armed.get()
              && ((String) args[0]).startsWith("INSERT INTO restore_id_map")
              && mappings.incrementAndGet() == 3) {
            try {
              claimForAnother(database);
            } catch (SQLException e) {
              takeOverFailed.set(e); // the test's own step failed: said first, not as a miss
              throw e;
            }
            refused.incrementAndGet();
            throw new SQLIntegrityConstraintViolationException(
                "Duplicate entry '5-1499' for key 'PRIMARY'", "23000", 1062);
          }
        });
  }

  /**
   * The other instance's claim, retried as a claim is when InnoDB picks it as a deadlock's victim
   * (this instance's lease renewal updates the same row).
   */
  private static void claimForAnother(TestDatabase database) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try (Connection other = database.connectionOfItsOwn();
          Statement s = other.createStatement()) {
        s.executeUpdate(
            "UPDATE restore_account SET lease_owner = 'another-instance',"
                + " lease_until = NOW(3) + INTERVAL "
                + LEASE_SECONDS
                + " SECOND");
        return;
      } catch (SQLException e) {
        if (attempt == 5 || !DatabaseRetry.isTransient(e)) {
          throw e;
        }
      }
    }
  }
}
