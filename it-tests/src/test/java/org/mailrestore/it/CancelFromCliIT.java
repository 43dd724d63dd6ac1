package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * {@code restore cancel} from another process stops a running restore through the database; {@code
 * restore status} shows it; {@code restore run --operation} resumes it to an exact end.
 */
class CancelFromCliIT {

  @TempDir Path dir;
  TestDatabase database;

  @BeforeEach
  void createDatabase() {
    database = TestMariaDb.createDatabase();
  }

  @AfterEach
  void dropDatabase() {
    database.close();
  }

  private Cli.Result admin(String... args) {
    String[] all = new String[args.length + 4];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--jdbc-url";
    all[args.length + 1] = database.jdbcUrl();
    all[args.length + 2] = "--db-user";
    all[args.length + 3] = database.server().user();
    return Cli.run(all);
  }

  @Test
  void cancelledFromAnotherProcessThenResumed() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 6, 1500, 9);
    RestoreProcesses restores = new RestoreProcesses(backup, dir.resolve("volume"), database);

    CliProcess child = restores.start();
    String operation = child.operation();
    assertThat(restores.awaitCount(child, "SELECT COUNT(*) FROM restore_cluster", n -> n >= 5))
        .as("in phase 2 before the cancel")
        .isTrue();
    Cli.Result cancel = admin("restore", "cancel", "--operation", operation);
    assertThat(cancel.exitCode()).as(cancel.out()).isZero();
    assertThat(cancel.out()).contains("cancel requested");

    assertThat(child.waitFor(60)).as(child.output()).isEqualTo(3);
    assertThat(child.output()).contains("CANCELLED").contains("resume to continue");

    Cli.Result status = admin("restore", "status", "--operation", operation);
    assertThat(status.exitCode()).as(status.out()).isZero();
    assertThat(status.out()).contains(operation + "  CANCELLED").contains("by state");
    Cli.Result list = admin("restore", "status");
    assertThat(list.out()).contains(operation).contains("CANCELLED");

    Cli.Result again = admin("restore", "cancel", "--operation", operation);
    assertThat(again.exitCode()).isEqualTo(3);

    Cli.Result resumed = restores.runInProcess("--operation", operation);
    assertThat(resumed.exitCode()).as(resumed.out()).isZero();
    assertThat(resumed.out()).contains("COMPLETED");
    Cli.Result verified = restores.verify();
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
  }
}
