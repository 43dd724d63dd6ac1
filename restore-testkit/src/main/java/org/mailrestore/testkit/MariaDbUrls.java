package org.mailrestore.testkit;

/** The connection options tests use: the same as the service's (see docs/mailstore.md). */
final class MariaDbUrls {
  static final String OPTIONS = "useBulkStmtsForInserts=true&connectTimeout=5000";

  private MariaDbUrls() {}
}
