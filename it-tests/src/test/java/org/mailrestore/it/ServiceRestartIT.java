package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service stopped with SIGTERM in the middle of a restore leaves the operation resumable, and the
 * next service started on the same database finishes it by itself: nothing lost, nothing twice.
 */
class ServiceRestartIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void aRestoreInterruptedByAShutdownIsFinishedByTheNextStart() throws Exception {
    Path backups = Files.createDirectories(dir.resolve("backups"));
    Path backup = RestoreProcesses.generate(backups.resolve("b"), 6, 3000, 5);
    String operation;
    try (ServiceProcess first = ServiceProcess.start(own.database(), dir, backups)) {
      Cli.Result started =
          first.cli(
              "restore",
              "start",
              "--backup",
              backup.toString(),
              "--cluster-size",
              "50",
              "--concurrent-accounts",
              "1");
      assertThat(started.exitCode()).as(started.err()).isZero();
      operation = started.operation();
      first.awaitItemsRestored(operation);
    } // SIGTERM: the service stops gracefully
    RestoreProcesses store = new RestoreProcesses(backup, dir.resolve("unused"), own.database());
    assertThat(
            store.count(
                "SELECT COUNT(*) FROM restore_operation WHERE state = 'RUNNING'"
                    + " AND id = '"
                    + operation
                    + "'"))
        .as("left resumable, not ended")
        .isEqualTo(1);
    long committed = store.committedClusters();

    try (ServiceProcess second = ServiceProcess.start(own.database(), dir, backups)) {
      // Nobody asks: the new instance finds the interrupted operation and finishes it.
      Cli.Result watched = second.cli("restore", "watch", operation, "--every", "5");
      assertThat(watched.exitCode()).as(watched.out() + watched.err()).isZero();
      assertThat(watched.out()).contains("COMPLETED");
      assertThat(store.committedClusters()).isGreaterThan(committed);
      Cli.Result verified = Cli.verify(backup, own.database(), second.volume);
      assertThat(verified.exitCode()).as(verified.out()).isZero();
      assertThat(verified.out()).contains("no differences");
    }
  }
}
