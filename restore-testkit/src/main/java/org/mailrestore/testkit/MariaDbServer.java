package org.mailrestore.testkit;

/**
 * A MariaDB server the tests may create databases on.
 *
 * @param origin how it was found: {@code configured}, {@code testcontainers}, {@code local} or
 *     {@code embedded}
 */
public record MariaDbServer(String host, int port, String user, String password, String origin) {

  /** A JDBC URL for one database on this server, with the options the mailstore expects. */
  public String jdbcUrl(String database) {
    return "jdbc:mariadb://" + host + ":" + port + "/" + database + "?" + MariaDbUrls.OPTIONS;
  }

  /** A JDBC URL without a database, for creating and dropping databases. */
  public String serverUrl() {
    return "jdbc:mariadb://" + host + ":" + port + "/?" + MariaDbUrls.OPTIONS;
  }

  @Override
  public String toString() {
    return origin + " MariaDB at " + host + ":" + port;
  }
}
