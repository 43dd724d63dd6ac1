package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLIntegrityConstraintViolationException;
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
 * Another instance takes an account over while this one writes a cluster of it, and its rows refuse
 * this one's (a duplicate key, as a mailbox's ids do): this instance leaves the account rather than
 * failing it, and takes it up again once the other's lease lapses; the restore ends exact (decision
 * 0052). The other instance is played by SQL on the real MariaDB: it claims the account and never
 * renews.
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
      DataSource real = f.database.dataSource();
      RestoreRuntime runtime =
          f.runtime(takenOverAtThirdCluster(real, armed, refused), LEASE_SECONDS);
      runtime.target(null);
      RestoreEngine engine = runtime.engine();
      String id = engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
      armed.set(true);
      OperationSummary result = engine.run(id);
      assertThat(refused).hasValue(1);
      assertThat(result.state()).as(result.toString()).isEqualTo(OperationState.COMPLETED);
      assertThat(result.counts().itemsRestored()).isEqualTo(expected);
      assertThat(result.counts().itemsFailed()).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
      runtime.close();
    }
  }

  /**
   * At the third cluster's id mappings: another instance claims the account (its lease for {@value
   * #LEASE_SECONDS} s, never renewed), and the insert is refused as its rows would refuse it.
   */
  private static DataSource takenOverAtThirdCluster(
      DataSource real, AtomicBoolean armed, AtomicInteger refused) {
    AtomicInteger mappings = new AtomicInteger();
    return InterceptedDataSource.of(
        real,
        (connection, method, args) -> {
          if (method.getName().equals("prepareStatement")
              && armed.get()
              && ((String) args[0]).startsWith("INSERT INTO restore_id_map")
              && mappings.incrementAndGet() == 3) {
            try (Connection other = real.getConnection();
                Statement s = other.createStatement()) {
              s.executeUpdate(
                  "UPDATE restore_account SET lease_owner = 'another-instance',"
                      + " lease_until = NOW(3) + INTERVAL "
                      + LEASE_SECONDS
                      + " SECOND");
            }
            refused.incrementAndGet();
            throw new SQLIntegrityConstraintViolationException(
                "Duplicate entry '5-1499' for key 'PRIMARY'", "23000", 1062);
          }
        });
  }
}
