package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two restore processes share one operation through the database: both hold accounts at once; the
 * first is killed, and the second takes over its accounts (after their leases) and the
 * coordination, and finishes the operation exactly.
 */
class TwoProcessesIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void secondProcessFinishesWhatTheKilledOneHeld() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 10, 2500, 23);
    RestoreProcesses restores = new RestoreProcesses(backup, dir.resolve("volume"), own.database());

    // Two accounts at a time each, so that accounts are left for the second process to take; held
    // to a pace so that the first is still at work when the second has started, on any machine.
    CliProcess first =
        restores.start("--concurrent-accounts", "2", "--max-items-per-second", "2500");
    String operation = first.operation();
    CliProcess second = restores.start("--operation", operation, "--concurrent-accounts", "2");
    String owners =
        "SELECT COUNT(DISTINCT lease_owner) FROM restore_account WHERE operation_id = '"
            + operation
            + "'";
    assertThat(restores.awaitCount(first, owners, n -> n == 2))
        .as("both processes hold accounts at once:%n%s", first.output())
        .isTrue();
    long heldByFirst =
        restores.count(
            "SELECT COUNT(*) FROM restore_account WHERE finished_at IS NULL AND lease_owner IN"
                + " (SELECT coordinator FROM restore_operation)");
    first.kill();
    assertThat(heldByFirst).as("accounts the killed coordinator held").isPositive();

    assertThat(second.waitFor(300)).as(second.output()).isZero();
    assertThat(second.output()).contains("COMPLETED").contains("0 failed");
    assertThat(restores.count("SELECT COUNT(*) FROM restore_account WHERE finished_at IS NULL"))
        .isZero();
    Cli.Result verified = restores.verify();
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
  }

  /**
   * The first process is paused (SIGSTOP) past its leases while the second takes its accounts and
   * the operation over, then let go: its late writes are refused (the mailstore's keys, the leases'
   * owner checks), it leaves the accounts, and the store is exact.
   */
  @Test
  void aProcessPausedPastItsLeasesThenLetGoChangesNothing() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 6, 2500, 29);
    RestoreProcesses restores = new RestoreProcesses(backup, dir.resolve("volume"), own.database());
    CliProcess first =
        restores.start("--concurrent-accounts", "2", "--max-items-per-second", "2500");
    String operation = first.operation();
    assertThat(restores.awaitCount(first, "SELECT COUNT(*) FROM restore_cluster", n -> n >= 5))
        .as("the first process is mid-way when paused:%n%s", first.output())
        .isTrue();
    first.pause();
    CliProcess second = restores.start("--operation", operation, "--concurrent-accounts", "2");
    Thread.sleep(8_000); // past the 3 s leases, while the second takes over
    first.resume();
    assertThat(second.waitFor(300)).as(second.output()).isZero();
    first.waitFor(120);
    assertThat(second.output()).contains("COMPLETED").contains("0 failed");
    assertThat(restores.count("SELECT COUNT(*) FROM restore_account WHERE finished_at IS NULL"))
        .isZero();
    assertThat(
            restores.count(
                "SELECT COUNT(*) FROM restore_operation WHERE state = 'COMPLETED' AND id = '"
                    + operation
                    + "'"))
        .as("the operation ends COMPLETED:%n%s", first.output())
        .isOne();
    Cli.Result verified = restores.verify();
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
  }
}
