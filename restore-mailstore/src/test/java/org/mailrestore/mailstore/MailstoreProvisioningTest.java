package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.mail.Account;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * Phase 1 creates accounts several at once (decision 0065), and each writes rows every account of
 * its domain and class of service shares: none of them fails for another's write of those rows.
 */
class MailstoreProvisioningTest {

  private static final int AT_ONCE = 12;

  static TestDatabase database;

  @BeforeAll
  static void schema() {
    database = TestMariaDb.createDatabase();
    MailstoreSchema.migrate(database.dataSource());
  }

  @AfterAll
  static void drop() {
    database.close();
  }

  @RepeatedTest(3)
  void accountsOfOneNewDomainAndClassOfServiceAreCreatedAtOnce() throws Exception {
    MailstoreProvisioning provisioning =
        new MailstoreProvisioning(new ProvisioningStore(database.dataSource()));
    String run = UUID.randomUUID().toString().substring(0, 8);
    String domain = run + ".example";
    String cos = "cos-" + run;
    CyclicBarrier start = new CyclicBarrier(AT_ONCE);
    List<Future<ProvisionedAccount>> created = new ArrayList<>();
    try (ExecutorService threads = Executors.newFixedThreadPool(AT_ONCE)) {
      for (int i = 0; i < AT_ONCE; i++) {
        String name = "user" + i + "@" + domain;
        Account account =
            new Account(
                UUID.randomUUID().toString(),
                name,
                domain,
                cos,
                "active",
                false,
                List.of(),
                Map.of());
        created.add(
            threads.submit(() -> {
              start.await();
              return provisioning.create(account, name, account.id(), true);
            }));
      }
      for (Future<ProvisionedAccount> f : created) {
        assertThat(f.get().key()).isPositive();
      }
    }
    assertThat(count("SELECT COUNT(*) FROM domain WHERE name = '" + domain + "'")).isEqualTo(1);
    assertThat(count("SELECT COUNT(*) FROM cos WHERE name = '" + cos + "'")).isEqualTo(1);
    assertThat(
            count(
                "SELECT COUNT(*) FROM account a JOIN domain d ON d.id = a.domain_id"
                    + " JOIN cos c ON c.id = a.cos_id JOIN mailbox m ON m.account_id = a.id"
                    + " WHERE d.name = '"
                    + domain
                    + "' AND c.name = '"
                    + cos
                    + "'"))
        .isEqualTo(AT_ONCE);
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
