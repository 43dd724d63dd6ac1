package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.mailrestore.testkit.TestDatabase;

/** Restores of one backup into one test database, run as CLI processes: the crash tests' setup. */
final class RestoreProcesses {

  final Path backup;
  final Path volume;
  final TestDatabase database;

  RestoreProcesses(Path backup, Path volume, TestDatabase database) {
    this.backup = backup;
    this.volume = volume;
    this.database = database;
  }

  static Path generate(Path backup, int accounts, int items, int seed) {
    Cli.Result generated =
        Cli.run(
            "backup",
            "generate",
            "--out",
            backup.toString(),
            "--accounts",
            String.valueOf(accounts),
            "--items",
            String.valueOf(items),
            "--seed",
            String.valueOf(seed));
    assertThat(generated.exitCode()).as(generated.out()).isZero();
    return backup;
  }

  /** {@code restore run} arguments, with a short lease so that takeovers are quick. */
  List<String> restoreArgs(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--jdbc-url",
                database.jdbcUrl(),
                "--db-user",
                database.server().user(),
                "--volume",
                volume.toString(),
                "--cluster-size",
                "100",
                "--lease-seconds",
                "3"));
    args.addAll(List.of(extra));
    return args;
  }

  CliProcess start(String... extra) {
    return CliProcess.start(database.server().password(), restoreArgs(extra));
  }

  Cli.Result runInProcess(String... extra) {
    return Cli.run(restoreArgs(extra).toArray(String[]::new));
  }

  Cli.Result verify() {
    return Cli.run(
        "verify",
        "--backup",
        backup.toString(),
        "--jdbc-url",
        database.jdbcUrl(),
        "--db-user",
        database.server().user(),
        "--volume",
        volume.toString());
  }

  long count(String sql) throws Exception {
    try (Connection c = database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  long committedClusters() throws Exception {
    return count("SELECT COUNT(*) FROM restore_cluster");
  }

  /**
   * Waits until {@code sql} counts a value {@code until} accepts, while {@code process} lives;
   * returns whether it got there before the process ended.
   */
  boolean awaitCount(CliProcess process, String sql, LongPredicate until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (process.isAlive()) {
      if (until.test(count(sql))) {
        return true;
      }
      assertThat(System.nanoTime())
          .as("no progress in 3 minutes:%n%s", process.output())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return false;
  }
}
