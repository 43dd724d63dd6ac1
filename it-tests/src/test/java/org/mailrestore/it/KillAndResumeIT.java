package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * The restore process is killed with SIGKILL in the middle of phase 2, then resumed: the store ends
 * identical to the backup (verify finds no difference), with no item lost or doubled.
 */
class KillAndResumeIT {

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

  private List<String> restoreArgs(Path backup, String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
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
                dir.resolve("volume").toString(),
                "--cluster-size",
                "100",
                "--lease-seconds",
                "3"));
    args.addAll(List.of(extra));
    return args;
  }

  private long count(String sql) throws Exception {
    try (Connection c = database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void killedWithSigkillThenResumedEndsIdentical() throws Exception {
    Path backup = dir.resolve("backup");
    Cli.Result generated =
        Cli.run(
            "backup",
            "generate",
            "--out",
            backup.toString(),
            "--accounts",
            "6",
            "--items",
            "1500",
            "--seed",
            "11");
    assertThat(generated.exitCode()).as(generated.out()).isZero();

    List<String> command = new java.util.ArrayList<>(Launcher.javaJar());
    command.addAll(restoreArgs(backup));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("MAILRESTORE_DB_PASSWORD", database.server().password());
    Process child = builder.start();
    String operation;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      Matcher m = Pattern.compile("^operation ([0-9a-f-]{36})$").matcher(out.readLine());
      assertThat(m.matches()).isTrue();
      operation = m.group(1);
      // Kill at a random point of phase 2: after a random number of committed clusters.
      long killAfter = 3 + new SplittableRandom().nextInt(40);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (count("SELECT COUNT(*) FROM restore_cluster") < killAfter && child.isAlive()) {
        assertThat(System.nanoTime()).as("restore progresses").isLessThan(deadline);
        Thread.sleep(20);
      }
      assertThat(child.isAlive()).as("still in phase 2 when killed").isTrue();
      child.destroyForcibly(); // SIGKILL on Unix: no shutdown hook, no cleanup
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    long committed = count("SELECT COUNT(*) FROM restore_cluster");
    assertThat(committed).isPositive();

    Cli.Result resumed =
        Cli.run(restoreArgs(backup, "--operation", operation).toArray(String[]::new));
    assertThat(resumed.exitCode()).as(resumed.out()).isZero();
    assertThat(resumed.out()).contains("COMPLETED").contains("0 skipped");

    Cli.Result verified =
        Cli.run(
            "verify",
            "--backup",
            backup.toString(),
            "--jdbc-url",
            database.jdbcUrl(),
            "--db-user",
            database.server().user(),
            "--volume",
            dir.resolve("volume").toString());
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");
    assertThat(
            count("SELECT COUNT(*) FROM restore_cluster WHERE operation_id = '" + operation + "'"))
        .isGreaterThan(committed);
  }
}
