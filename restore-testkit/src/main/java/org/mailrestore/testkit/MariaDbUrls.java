package org.mailrestore.testkit;

final class MariaDbUrls {
  // Tests use the same connection options as the service (see docs/mailstore.md).
  static final String OPTIONS = "useBulkStmtsForInserts=true&connectTimeout=5000";

  private MariaDbUrls() {}
}
