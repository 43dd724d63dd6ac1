package org.mailrestore.it;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * A database of the test's own, created before each test and dropped after it:
 * {@code @RegisterExtension final OwnDatabase own = new OwnDatabase();}.
 */
final class OwnDatabase implements BeforeEachCallback, AfterEachCallback {

  private TestDatabase database;

  @Override
  public void beforeEach(ExtensionContext context) {
    database = TestMariaDb.createDatabase();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (database != null) {
      database.close();
      database = null;
    }
  }

  /** The test's database. */
  TestDatabase database() {
    if (database == null) {
      throw new IllegalStateException("the database exists only while a test runs");
    }
    return database;
  }
}
