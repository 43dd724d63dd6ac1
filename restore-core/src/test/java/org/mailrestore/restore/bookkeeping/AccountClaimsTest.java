package org.mailrestore.restore.bookkeeping;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/** Workers of one instance claiming accounts at the same moment, on the real MariaDB. */
class AccountClaimsTest {

  private TestDatabase database;
  private Bookkeeping books;
  private final String operationId = UUID.randomUUID().toString();

  @BeforeEach
  void accounts() throws Exception {
    database = TestMariaDb.createDatabase();
    books =
        ProvisionedOperation.create(
            database.dataSource(), operationId, "claims", "carol", "alice", "bob", "dave");
  }

  @AfterEach
  void drop() {
    database.close();
  }

  @Test
  void aClaimInProgressLeavesTheOtherAccountsToAnotherWorker() throws Exception {
    try (Connection held = database.dataSource().getConnection()) {
      held.setAutoCommit(false);
      // Another worker is in the middle of its claim: its read of the next free account holds
      // its locks until it commits.
      try (PreparedStatement ps = held.prepareStatement(AccountStore.NEXT_FREE_ACCOUNT)) {
        ps.setString(1, operationId);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("src-alice");
        }
      }

      Optional<AccountProgress> mine =
          books.accounts().claimNext(operationId, Claim.next("here"), 300);

      assertThat(mine).as("a worker claiming meanwhile takes the next account").isPresent();
      assertThat(mine.get().sourceAccountId()).isEqualTo("src-bob");
      held.rollback();
    }
  }

  @Test
  void accountsAreClaimedInNameOrderUntilNoneIsLeft() throws Exception {
    StringBuilder order = new StringBuilder();
    for (Optional<AccountProgress> a =
            books.accounts().claimNext(operationId, Claim.next("here"), 300);
        a.isPresent();
        a = books.accounts().claimNext(operationId, Claim.next("here"), 300)) {
      order.append(a.get().sourceAccountId()).append(' ');
    }
    assertThat(order.toString().strip()).isEqualTo("src-alice src-bob src-carol src-dave");
  }
}
