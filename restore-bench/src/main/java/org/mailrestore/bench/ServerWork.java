package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the database server did over a stretch of a benchmark: its own counters, which do not drift
 * with the machine's load as seconds do, and its CPU seconds when it runs on this machine. The
 * counters are global: they count everyone's work, so a stretch measured must be the only work.
 *
 * @param commands statements and commands received ({@code Questions}): what a restore costs the
 *     server in round trips
 * @param executes prepared-statement executions; a batch sent as one bulk command counts once
 * @param commits {@code COMMIT}s received
 * @param rowsWritten rows written by the storage engines ({@code Handler_write})
 * @param fsyncs InnoDB's fsyncs of its data and log files
 * @param cpuSeconds the server process's CPU time, or -1 when it is not a process of this machine
 */
record ServerWork(
    long commands, long executes, long commits, long rowsWritten, long fsyncs, double cpuSeconds) {

  private static final Map<String, String> COUNTERS =
      Map.of(
          "Questions", "commands",
          "Com_stmt_execute", "executes",
          "Com_commit", "commits",
          "Handler_write", "rowsWritten",
          "Innodb_data_fsyncs", "fsyncs");

  /** The server's counters now. */
  static ServerWork now(String serverUrl, String user, String password) throws SQLException {
    Map<String, Long> values = new HashMap<>();
    try (Connection c = DriverManager.getConnection(serverUrl, user, password);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS")) {
      while (rs.next()) {
        String name = COUNTERS.get(rs.getString(1));
        if (name != null) {
          values.put(name, rs.getLong(2));
        }
      }
    }
    return new ServerWork(
        values.getOrDefault("commands", 0L),
        values.getOrDefault("executes", 0L),
        values.getOrDefault("commits", 0L),
        values.getOrDefault("rowsWritten", 0L),
        values.getOrDefault("fsyncs", 0L),
        localServerCpuSeconds(serverUrl).orElse(-1.0));
  }

  /** The work done since {@code start}. */
  ServerWork since(ServerWork start) {
    return new ServerWork(
        commands - start.commands,
        executes - start.executes,
        commits - start.commits,
        rowsWritten - start.rowsWritten,
        fsyncs - start.fsyncs,
        cpuSeconds < 0 || start.cpuSeconds < 0 ? -1 : cpuSeconds - start.cpuSeconds);
  }

  /** This work and {@code other}'s: stretches measured one after the other. */
  ServerWork plus(ServerWork other) {
    return new ServerWork(
        commands + other.commands,
        executes + other.executes,
        commits + other.commits,
        rowsWritten + other.rowsWritten,
        fsyncs + other.fsyncs,
        cpuSeconds < 0 || other.cpuSeconds < 0 ? -1 : cpuSeconds + other.cpuSeconds);
  }

  static final ServerWork NONE = new ServerWork(0, 0, 0, 0, 0, 0);

  /** One line for a report: the counters, then the CPU when known. */
  String describe() {
    return String.format(
        Locale.ROOT,
        "%,d commands, %,d executes, %,d commits, %,d rows written, %,d fsyncs%s",
        commands,
        executes,
        commits,
        rowsWritten,
        fsyncs,
        cpuSeconds < 0 ? "" : String.format(Locale.ROOT, ", %.2f CPU-s", cpuSeconds));
  }

  /**
   * The CPU seconds of the MariaDB server this machine runs, when the URL names this machine and
   * exactly one such process is readable in {@code /proc}.
   */
  private static Optional<Double> localServerCpuSeconds(String serverUrl) {
    String url = serverUrl.toLowerCase(Locale.ROOT);
    if (!(url.contains("//127.0.0.1") || url.contains("//localhost") || url.contains("//[::1]"))) {
      return Optional.empty();
    }
    var servers =
        ProcessHandle.allProcesses()
            .filter(p -> p.info().command().map(ServerWork::isServer).orElse(false))
            .toList();
    if (servers.size() != 1) {
      return Optional.empty();
    }
    try {
      String stat =
          Files.readString(Path.of("/proc", String.valueOf(servers.get(0).pid()), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 14 and 15 of proc(5), utime and stime, in USER_HZ (100 on Linux)
      return Optional.of((Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean isServer(String command) {
    return command.endsWith("/mariadbd") || command.endsWith("/mysqld");
  }
}
