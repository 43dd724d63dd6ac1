package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.bookkeeping.ClaimStore;
import org.mailrestore.restore.bookkeeping.ClaimStore.Conflict;
import org.mailrestore.source.MailSource;
import org.mailrestore.verify.Verifier;

/**
 * One writer per account: operations on the same accounts run one after the other (the later ones
 * QUEUED, saying whom they wait for), operations on other accounts at once; operations that cannot
 * run end FAILED with their reason instead of being retried for ever.
 */
class OneWriterPerAccountTest {

  @TempDir Path dir;
  Path backup;

  @BeforeEach
  void generate() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(60), backup);
  }

  @Test
  void claimsAreAllOrNothingAndFreedWhenTheirOperationEnds() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      ClaimStore claims = f.engine.bookkeeping().claims();
      String a = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      String b = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      String c = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      assertThat(claims.claim(a, List.of("x@example.org", "Y@example.org"))).isEmpty();
      assertThat(claims.claim(b, List.of("z@example.org"))).isEmpty(); // disjoint: at once
      Optional<Conflict> conflict = claims.claim(c, List.of("w@example.org", "y@EXAMPLE.org"));
      assertThat(conflict).contains(new Conflict(a, "y@example.org", 0));
      assertThat(claims.heldBy(c)).isEmpty(); // nothing of w claimed either
      assertThat(claims.claim(a, List.of("x@example.org"))).isEmpty(); // its own again: fine

      f.engine.operations().finish(a, OperationState.COMPLETED, null);
      assertThat(claims.heldBy(a)).isEmpty();
      assertThat(claims.claim(c, List.of("w@example.org", "y@example.org"))).isEmpty();
      assertThat(claims.heldBy(c)).containsExactly("w@example.org", "y@example.org");
    }
  }

  @Test
  void anOperationWaitsQueuedForTheAccountsAnotherHoldsThenRuns() throws Exception {
    try (RestoreFixture f = new RestoreFixture();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      String holder = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      List<String> names = List.copyOf(AccountClaimsProbe.names(f, backup));
      assertThat(f.engine.bookkeeping().claims().claim(holder, names.subList(0, 1))).isEmpty();

      String waiter = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      Future<OperationSummary> run = threads.submit(() -> f.engine.run(waiter));
      OperationSummary waiting = awaitMessage(f, waiter, holder);
      assertThat(waiting.state()).isEqualTo(OperationState.QUEUED);
      assertThat(waiting.message()).contains(names.getFirst().toLowerCase());
      assertThat(
              f.count("SELECT COUNT(*) FROM restore_account WHERE operation_id = '" + waiter + "'"))
          .as("nothing provisioned while waiting")
          .isZero();

      f.engine.cancel(holder); // nobody runs it: CANCELLED at once, its claims count no more
      OperationSummary done = run.get(60, TimeUnit.SECONDS);
      assertThat(done.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(done.counts().itemsRestored()).isPositive();
      assertThat(f.engine.bookkeeping().claims().heldBy(waiter)).isEmpty();
    }
  }

  @Test
  void concurrentReplacesOfTheSameAccountsAllEndAndLeaveTheBackupsState() throws Exception {
    try (RestoreFixture f = new RestoreFixture();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<OperationSummary>> runs = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        RestoreRequest request =
            RestoreRequest.local(backup.toString()).withPolicy(ConflictPolicy.REPLACE);
        String id = f.engine.submit(request, null);
        runs.add(threads.submit(() -> f.engine.run(id)));
      }
      for (Future<OperationSummary> run : runs) {
        OperationSummary s = run.get(120, TimeUnit.SECONDS);
        assertThat(s.state()).as(s.id() + ": " + s.message()).isEqualTo(OperationState.COMPLETED);
        assertThat(s.counts().errors()).isZero();
      }
      assertThat(f.count("SELECT COUNT(*) FROM restore_failure")).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  @Test
  void anOperationWhoseStoredRequestCannotBeReadEndsFailedWithItsReason() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      // As an older version stored it: an instant far outside what a restore accepts now.
      try (Connection c = f.database.dataSource().getConnection();
          Statement s = c.createStatement()) {
        s.executeUpdate(
            "UPDATE restore_operation SET state = 'RUNNING', request = JSON_SET(request, '$.asOf',"
                + " '-999999999-01-01T00:00:00Z') WHERE id = '"
                + id
                + "'");
      }
      assertThat(f.engine.interrupted()).contains(id);
      long started = System.nanoTime();
      OperationSummary ended = f.engine.runUnlessEnded(id);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
      assertThat(ended.state()).isEqualTo(OperationState.FAILED);
      assertThat(ended.message()).contains("stored request cannot be read");
      assertThat(f.engine.interrupted()).doesNotContain(id); // not resumed again
      assertThat(
              f.engine.bookkeeping().failures().list(id, 0, 10).stream().map(FailureRecord::reason))
          .containsExactly(FailureReason.INTERNAL_ERROR.name());
    }
  }

  @Test
  void aRunStoppedByTheDatabaseIsHeldBackBeforeItsNextRun() throws Exception {
    try (RestoreFixture f = new RestoreFixture()) {
      var operations = f.engine.operations();
      var retries = f.engine.bookkeeping().retries();
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      assertThat(f.engine.interrupted()).contains(id);
      assertThat(retries.defer(id, "the database went away", 60)).isEqualTo(1);
      assertThat(f.engine.interrupted()).doesNotContain(id);
      assertThat(operations.find(id).orElseThrow().message()).isEqualTo("the database went away");
      assertThat(retries.defer(id, "again", 0)).isEqualTo(2);
      assertThat(f.engine.interrupted()).contains(id);
      OperationSummary done = f.engine.runUnlessEnded(id);
      assertThat(done.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(retries.attempts(id)).isZero();
    }
  }

  private static OperationSummary awaitMessage(RestoreFixture f, String id, String naming)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      OperationSummary s = f.engine.operations().find(id).orElseThrow();
      if (s.message() != null && s.message().contains(naming)) {
        return s;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("operation " + id + " never said it waits for " + naming);
  }

  /** The addresses of the generated backup's accounts. */
  static final class AccountClaimsProbe {
    static Set<String> names(RestoreFixture f, Path backup) throws Exception {
      try (MailSource source =
          f.runtime.openSource(org.mailrestore.backup.BackupSourceKind.local(backup))) {
        Set<String> names = new java.util.TreeSet<>();
        for (String id : source.accountIds()) {
          if (source.account(id) instanceof Parsed.Ok<Account>(Account a, String at)) {
            names.add(a.name());
          }
        }
        return names;
      }
    }
  }
}
