package org.mailrestore.restore.bookkeeping;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
  void aClaimRacingAnotherForTheSameAccountTakesTheNext() throws Exception {
    try (Connection other = database.dataSource().getConnection()) {
      other.setAutoCommit(false);
      // Another worker's claim of alice, not yet committed: this claim reads alice as free.
      try (PreparedStatement ps =
          other.prepareStatement(
              "UPDATE restore_account SET lease_owner = 'there', lease_claim = 1,"
                  + " lease_until = NOW(3) + INTERVAL 300 SECOND"
                  + " WHERE operation_id = ? AND source_account_id = 'src-alice'")) {
        ps.setString(1, operationId);
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
      CompletableFuture<Optional<AccountProgress>> mine =
          CompletableFuture.supplyAsync(() -> {
            try {
              return books.accounts().claimNext(operationId, Claim.next("here"), 300);
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          });
      Thread.sleep(300); // this claim's update of alice now waits for the other's
      assertThat(mine).isNotDone();
      other.commit();

      assertThat(mine.get(10, TimeUnit.SECONDS))
          .as("alice went to the other worker: this claim takes the next account")
          .hasValueSatisfying(a -> assertThat(a.sourceAccountId()).isEqualTo("src-bob"));
    }
  }

  @Test
  void anAccountHeldUnderALiveLeaseIsNotClaimedAndOneWhoseLeaseRanOutIs() throws Exception {
    try (Connection c = database.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE restore_account SET lease_owner = 'there', lease_claim = 1,"
                    + " lease_until = NOW(3) + INTERVAL ? SECOND"
                    + " WHERE operation_id = ? AND source_account_id = ?")) {
      for (Object[] lease : new Object[][] {{300, "src-alice"}, {-1, "src-bob"}}) {
        ps.setInt(1, (Integer) lease[0]);
        ps.setString(2, operationId);
        ps.setString(3, (String) lease[1]);
        ps.executeUpdate();
      }
    }
    AccountProgress mine =
        books.accounts().claimNext(operationId, Claim.next("here"), 300).orElseThrow();
    assertThat(mine.sourceAccountId()).isEqualTo("src-bob");
    assertThat(mine.leaseOwner()).isEqualTo("here");
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
