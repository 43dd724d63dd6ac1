package org.mailrestore.restore.bookkeeping;

import java.sql.SQLException;
import javax.sql.DataSource;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.sql.Sql;

/** An operation whose accounts are provisioned: where the tests of phase 2's claims start. */
public final class ProvisionedOperation {

  private ProvisionedOperation() {}

  /**
   * Migrates the bookkeeping and creates the operation with one provisioned account per name
   * ({@code src-<name>}, restored into {@code <name>@<label>.example}).
   */
  public static Bookkeeping create(
      DataSource dataSource, String operationId, String label, String... names)
      throws SQLException {
    EngineSchema.migrate(dataSource);
    Bookkeeping books = new Bookkeeping(dataSource);
    books.operations().create(operationId, RestoreRequest.local("/" + label), label, null);
    for (String name : names) {
      books.accounts().add(operationId, "src-" + name, name + "@" + label + ".example");
    }
    Sql.update(
        dataSource,
        "UPDATE restore_account SET state = 'PROVISIONED' WHERE operation_id = ?",
        operationId);
    return books;
  }
}
