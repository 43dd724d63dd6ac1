package org.mailrestore.bench;

import picocli.CommandLine.Option;

/** The MariaDB server a benchmark creates its own databases on (and drops them). */
final class ServerOptions {

  @Option(
      names = "--jdbc-url",
      defaultValue = "jdbc:mariadb://127.0.0.1:3306/",
      description =
          "The MariaDB server; databases of the benchmark's own are created and dropped (default: ${DEFAULT-VALUE})")
  String url;

  @Option(names = "--db-user", defaultValue = "root", description = "(default: ${DEFAULT-VALUE})")
  String user;

  /** From MAILRESTORE_DB_PASSWORD, never the command line; empty when unset. */
  String password() {
    return System.getenv().getOrDefault("MAILRESTORE_DB_PASSWORD", "");
  }
}
