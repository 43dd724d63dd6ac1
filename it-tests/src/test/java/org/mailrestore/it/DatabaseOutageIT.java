package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.testkit.MariaDbServer;
import org.mailrestore.testkit.TestDatabase;

/**
 * The database goes away under a running service in the middle of phase 2: every connection the
 * service holds to its schema is killed, three times. The operation waits, retries and completes;
 * {@code verify} finds the store equal to the backup (nothing lost, nothing twice), and the retries
 * show in the metrics.
 */
class DatabaseOutageIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void connectionsKilledMidRestoreThreeTimesAndTheRestoreStillEndsExact() throws Exception {
    Path roots = Files.createDirectories(dir.resolve("roots"));
    Path backup = RestoreProcesses.generate(roots.resolve("backup"), 6 * Soak.scale(), 1500, 21);
    Path volume;
    try (ServiceProcess service = ServiceProcess.start(own.database(), dir, roots)) {
      volume = service.volume;
      Cli.Result started =
          service.cli(
              "restore",
              "start",
              "--backup",
              backup.toString(),
              "--cluster-size",
              "50",
              "--concurrent-accounts",
              "2");
      assertThat(started.exitCode()).as(started.err()).isZero();
      String operation = started.operation();

      int killed = 0;
      long restoredBefore = 0;
      for (int outage = 0; outage < 3 * Soak.scale(); outage++) {
        restoredBefore = service.awaitMoreRestored(operation, restoredBefore);
        killed += killConnectionsOf(own.database());
      }
      assertThat(killed).as("connections killed").isPositive();

      Cli.Result watched = service.cli("restore", "watch", operation, "--every", "1");
      assertThat(watched.exitCode())
          .as(watched.out() + service.cli("restore", "failures", operation).out())
          .isZero();
      assertThat(watched.out()).contains("COMPLETED");

      String metrics = service.get("/actuator/prometheus");
      assertThat(Metrics.sum(metrics, "mailrestore_db_retries_total"))
          .as("database retries counted")
          .isPositive();
    }
    Cli.Result verified = Cli.verify(backup, own.database(), volume);
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out()).contains("no differences");
  }

  /**
   * Kills every connection to the test's schema but the one doing the killing (what a database
   * restart or a failover does to a pool) and returns how many it killed.
   */
  private static int killConnectionsOf(TestDatabase database) throws SQLException {
    MariaDbServer server = database.server();
    try (Connection c =
        DriverManager.getConnection(server.serverUrl(), server.user(), server.password())) {
      List<Long> ids = new ArrayList<>();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT id FROM information_schema.processlist WHERE db = ? AND id <>"
                  + " CONNECTION_ID()")) {
        ps.setString(1, database.name());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
      }
      int killed = 0;
      try (Statement s = c.createStatement()) {
        for (long id : ids) {
          try {
            s.execute("KILL CONNECTION " + id);
            killed++;
          } catch (SQLException gone) {
            // It closed on its own between the listing and the kill.
          }
        }
      }
      return killed;
    }
  }
}
