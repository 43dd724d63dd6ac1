package org.mailrestore.cli;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.mailrestore.sql.Database;
import picocli.CommandLine.Option;

/** Where a command finds the mailstore database, and how it logs in. */
final class DatabaseOptions {

  @Option(
      names = "--jdbc-url",
      required = true,
      description = "The mailstore database, e.g. jdbc:mariadb://127.0.0.1:3306/mailstore")
  String jdbcUrl;

  @Option(
      names = "--db-user",
      defaultValue = "root",
      description = "Database user (default: ${DEFAULT-VALUE})")
  String user;

  @Option(
      names = "--db-password-file",
      description =
          "A file holding the database password. Default: the environment variable"
              + " MAILRESTORE_DB_PASSWORD, else none. Never given on the command line.")
  Path passwordFile;

  String password() throws IOException {
    if (passwordFile != null) {
      return Files.readString(passwordFile).strip();
    }
    return System.getenv().getOrDefault("MAILRESTORE_DB_PASSWORD", "");
  }

  /** A small pool, for commands that only read or flag operations. */
  HikariDataSource smallPool() throws IOException {
    return Database.pool(jdbcUrl, user, password(), 2, "mailstore-admin", null);
  }
}
