package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several hosts (issue 41), as machines: the database on a host of its own and two restore
 * instances on two others, each a network namespace on a bridge of the test's own. Mid-operation
 * one instance is cut off from the database, paused (SIGSTOP) past its leases, or killed and
 * started again; the other takes its accounts over. The operation ends COMPLETED and the store
 * equals the backup: nothing lost, nothing twice. The instances share the volume's file system, as
 * they would share an NFS or S3 volume.
 */
class SeveralHostsIT {

  /** What happens to the first instance mid-operation. */
  enum Fault {
    CUT_FROM_THE_DATABASE,
    PAUSED_PAST_ITS_LEASES,
    KILLED_AND_STARTED_AGAIN;

    /**
     * Does it to the instance running on host {@code a}; answers the instance that runs there
     * afterwards ({@code again} starts a new one after a kill).
     */
    CliProcess strike(Hosts hosts, CliProcess first, Supplier<CliProcess> again) throws Exception {
      switch (this) {
        case CUT_FROM_THE_DATABASE -> {
          hosts.cut("a"); // from everything: the database, the server, the other host
          Thread.sleep(10_000); // three leases: the second takes the first's accounts
          hosts.mend("a");
          return first;
        }
        case PAUSED_PAST_ITS_LEASES -> {
          first.pause();
          Thread.sleep(10_000);
          first.resume();
          return first;
        }
        case KILLED_AND_STARTED_AGAIN -> {
          first.kill();
          return again.get();
        }
      }
      throw new AssertionError(this);
    }

    /**
     * Waits for both instances to end (the first's output and exit code go to the report) and
     * checks the operation ended COMPLETED on the database at {@code url}.
     */
    void awaitCompleted(CliProcess first, CliProcess second, String url, String operation)
        throws Exception {
      int secondExit = second.waitFor(300);
      int firstExit = first.waitFor(300);
      System.out.println(
          this
              + ": first exited "
              + firstExit
              + ":\n"
              + first.output()
              + "\nsecond exited "
              + secondExit
              + ":\n"
              + second.output());
      assertThat(query(url, "SELECT state FROM restore_operation WHERE id = '" + operation + "'"))
          .as("%s:%n%s%n%s", this, first.output(), second.output())
          .isEqualTo("COMPLETED");
    }
  }

  /** The first value {@code sql} answers on the database at {@code url}. */
  static String query(String url, String sql) throws java.sql.SQLException {
    try (Connection c = DriverManager.getConnection(url, "root", "");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getString(1);
    }
  }

  private static Hosts hosts;
  private static String server;

  @TempDir Path dir;

  @BeforeAll
  static void machines() throws Exception {
    Hosts.assumeAvailable();
    hosts = Hosts.create("db", "a", "b");
    server = hosts.startDatabase("db");
  }

  @AfterAll
  static void tearDown() {
    if (hosts != null) {
      hosts.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Fault.class)
  void theOperationEndsExactWhenOneInstance(Fault fault) throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 8, 2500, 41);
    String schema = "mr_hosts_" + Long.toHexString(System.nanoTime());
    List<String> store =
        List.of(
            "--jdbc-url",
            server + schema,
            "--db-user",
            "root",
            "--volume",
            dir.resolve("volume").toString());
    List<String> restore =
        new ArrayList<>(List.of("restore", "run", "--backup", backup.toString()));
    restore.addAll(store);
    restore.addAll(List.of("--cluster-size", "100", "--lease-seconds", "3"));
    restore.addAll(List.of("--concurrent-accounts", "2"));

    // Held to a pace so the first is mid-way on any machine when the fault comes.
    List<String> paced = new ArrayList<>(restore);
    paced.addAll(List.of("--max-items-per-second", "2000"));
    CliProcess first = CliProcess.startOn(hosts, "a", paced);
    String operation = first.operation();
    List<String> joining = new ArrayList<>(restore);
    joining.addAll(List.of("--operation", operation));
    CliProcess second = CliProcess.startOn(hosts, "b", joining);
    awaitClusters(schema, first, 5);

    first = fault.strike(hosts, first, () -> CliProcess.startOn(hosts, "a", joining));

    fault.awaitCompleted(first, second, server + schema, operation);
    assertThat(
            query(
                server + schema, "SELECT COUNT(*) FROM restore_account WHERE finished_at IS NULL"))
        .isEqualTo("0");
    List<String> verify = new ArrayList<>(List.of("verify", "--backup", backup.toString()));
    verify.addAll(store);
    Cli.Result verified = Cli.run(verify.toArray(String[]::new));
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out()).contains("no differences");
  }

  private static void awaitClusters(String schema, CliProcess first, int atLeast) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (true) {
      assertThat(first.isAlive())
          .as("the first instance ended early:%n%s", first.output())
          .isTrue();
      assertThat(System.nanoTime()).as("no progress:%n%s", first.output()).isLessThan(deadline);
      try {
        if (Long.parseLong(query(server + schema, "SELECT COUNT(*) FROM restore_cluster"))
            >= atLeast) {
          return;
        }
      } catch (java.sql.SQLException e) {
        // the schema is not made yet
      }
      Thread.sleep(50);
    }
  }
}
