package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM stops a restore gracefully: clusters in flight commit, leases are released (a resumed run
 * need not wait for them), and the resumed operation completes exactly.
 */
class GracefulShutdownIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void sigtermStopsCleanlyAndTheOperationResumes() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 6, 1500, 5);
    RestoreProcesses restores = new RestoreProcesses(backup, dir.resolve("volume"), own.database());

    CliProcess child = restores.start();
    String operation = child.operation();
    assertThat(restores.awaitCount(child, "SELECT COUNT(*) FROM restore_cluster", n -> n >= 5))
        .as("in phase 2 before SIGTERM")
        .isTrue();
    child.terminate();
    int exit = child.waitFor(60);
    assertThat(child.output())
        .contains("stopped for shutdown")
        .contains("--operation " + operation);
    assertThat(exit).as("exit code after SIGTERM").isNotZero();

    assertThat(
            restores.count(
                "SELECT COUNT(*) FROM restore_account WHERE lease_owner IS NOT NULL"
                    + " OR state = 'RESTORING' AND finished_at IS NOT NULL"))
        .as("account leases left behind")
        .isZero();
    assertThat(
            restores.count(
                "SELECT COUNT(*) FROM restore_operation WHERE coordinator IS NULL"
                    + " AND state = 'RUNNING' AND id = '"
                    + operation
                    + "'"))
        .as("left running, without a coordinator, to be resumed")
        .isOne();

    Cli.Result resumed = restores.runInProcess("--operation", operation);
    assertThat(resumed.exitCode()).as(resumed.out()).isZero();
    assertThat(resumed.out()).contains("COMPLETED");
    Cli.Result verified = restores.verify();
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
  }
}
