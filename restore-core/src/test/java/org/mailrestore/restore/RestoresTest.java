package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.destination.memory.MemoryStore;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;
import org.mailrestore.verify.Verifier;

/** The facade answers what every adapter asks, the engine and its bookkeeping behind it. */
class RestoresTest {

  @TempDir Path dir;
  private TestDatabase database;
  private Restores restores;
  private Path backup;
  private final String store = "facade-" + UUID.randomUUID();

  @BeforeEach
  void open() throws Exception {
    backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(120).withSystemAccounts(1),
        backup);
    database = TestMariaDb.createDatabase();
    restores =
        Restores.builder()
            .dataSource(database.dataSource())
            .concurrency(new Concurrency(2, 2, 8))
            .defaultTarget(MemoryKind.of(store))
            .build();
  }

  @AfterEach
  void close() {
    restores.close();
    database.close();
    MemoryStore.forget(store);
  }

  @Test
  void aRestoreIsSubmittedAwaitedAndAnswersForItself() throws Exception {
    RestoreRequest request = RestoreRequest.local(backup.toString());
    Submission submission = restores.submit(request, "key-1", Pace.of(100_000.0, null));
    assertThat(submission.created()).isTrue();
    assertThat(restores.submit(request, "key-1", Pace.UNLIMITED))
        .as("an idempotent replay")
        .isEqualTo(new Submission(submission.id(), false));
    assertThatThrownBy(() -> restores.submit(request.withClusterSize(7), "key-1", Pace.UNLIMITED))
        .isInstanceOf(IdempotencyKeyReusedException.class);

    // As long as it takes: a wait of centuries must not overflow.
    OperationView ended = restores.await(submission.id(), Duration.ofDays(365_000));
    assertThat(ended.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(ended.rates()).isNotNull();
    assertThat(restores.get(submission.id()).counts()).isEqualTo(ended.counts());
    assertThat(restores.pace(submission.id()).itemsPerSecond()).isEqualTo(100_000.0);
    assertThat(restores.accounts(submission.id())).hasSize(4);
    assertThat(restores.failures(submission.id(), 0, 10).items()).isEmpty();
    assertThat(restores.report(submission.id()).accounts()).hasSize(4);
    assertThat(restores.list(null, 0, 10).items())
        .extracting(OperationView::id)
        .containsExactly(submission.id());
    assertThat(restores.list(OperationState.RUNNING, 0, 10).items()).isEmpty();
    assertThat(restores.verify(BackupSourceKind.local(backup), null, Verifier.Options.defaults()))
        .satisfies(r -> assertThat(r.differences()).isEmpty());

    assertThatThrownBy(() -> restores.resume(submission.id()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("COMPLETED");
    assertThat(restores.join(submission.id()).state())
        .as("joining an ended operation leaves it as it is")
        .isEqualTo(OperationState.COMPLETED);
    assertThatThrownBy(() -> restores.get("no-such-operation"))
        .isInstanceOf(NoSuchElementException.class);
  }

  /**
   * An Error of the JVM (a heap too small for what an account holds) passes the engine's handlers
   * untouched, as it should; but who waits for the operation here learns at once that its run
   * stopped, and why, instead of waiting for ever. The operation stays resumable and resumes whole.
   */
  @Test
  void anErrorOfTheJvmEndsTheWaitAndTheOperationResumesWhole() throws Exception {
    String name =
        restores.inspect(BackupSourceKind.local(backup)).accounts().stream()
            .filter(a -> !a.system())
            .findFirst()
            .orElseThrow()
            .name();
    MemoryStore.named(store).exhaustHeapWriting(name, true);
    String id = restores.submit(RestoreRequest.local(backup.toString()), null, Pace.UNLIMITED).id();
    long started = System.nanoTime();
    OperationView stopped = restores.await(id, Duration.ofMinutes(10));
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("the wait ended with the run, not at its timeout")
        .isLessThan(Duration.ofMinutes(2));
    assertThat(stopped.state()).as("left to be resumed").isEqualTo(OperationState.RUNNING);
    assertThat(restores.stoppedBy(id))
        .isInstanceOf(OutOfMemoryError.class)
        .hasMessageContaining(name);
    assertThat(restores.get(id).message())
        .as("counted as a database outage is: a service resuming it gives up after as many runs")
        .contains("stopped by an error of the JVM, run again in 10 s (run 1 of 8)")
        .contains("OutOfMemoryError");

    MemoryStore.named(store).exhaustHeapWriting(name, false);
    restores.resume(id);
    OperationView ended = restores.await(id, Duration.ofMinutes(10));
    assertThat(ended.state()).isEqualTo(OperationState.COMPLETED);
    assertThat(restores.stoppedBy(id)).as("run again: forgotten").isNull();
    assertThat(restores.verify(BackupSourceKind.local(backup), null, Verifier.Options.defaults()))
        .as("nothing lost, nothing twice")
        .satisfies(r -> assertThat(r.differences()).isEmpty());
  }

  @Test
  void aSourceIsInspectedAndARestorePlannedWithoutWriting() throws Exception {
    SourceInspection inspection = restores.inspect(BackupSourceKind.local(backup));
    assertThat(inspection.accounts()).hasSize(4);
    assertThat(inspection.accounts())
        .filteredOn(SourceInspection.AccountInspection::system)
        .hasSize(1);
    assertThat(inspection.items()).isPositive();
    assertThat(inspection.bytes()).isPositive();
    assertThat(inspection.unreadable()).isEmpty();
    assertThat(inspection.earliest()).as("the backup keeps history").isNotNull();
    assertThat(inspection.earliest()).isBefore(inspection.latest());
    assertThat(inspection.accounts())
        .allSatisfy(a -> assertThat(a.itemsByType()).containsKey("folder"));

    RestorePlan plan = restores.dryRun(RestoreRequest.local(backup.toString()));
    assertThat(plan.accounts())
        .hasSize(4)
        .allSatisfy(a -> assertThat(a.action()).isEqualTo(RestorePlan.Action.CREATE));
    assertThat(MemoryStore.named(store).countOf(org.mailrestore.mail.ItemType.MESSAGE))
        .as("a dry run writes nothing")
        .isZero();
  }

  /**
   * Closing stops what runs here for a shutdown, waiting up to its wrap-up time (ten seconds) for
   * the operations to stop: it goes on as they stop, not at the end of that time.
   */
  @Test
  void closingWhileARestoreRunsGoesOnAsItStops() throws Exception {
    Submission s =
        restores.submit(RestoreRequest.local(backup.toString()), null, Pace.of(50.0, null));
    while (restores.get(s.id()).state() != OperationState.RUNNING) {
      restores.await(s.id(), Duration.ofMillis(20));
    }

    long start = System.nanoTime();
    restores.close();

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
  }

  @Test
  void aCancelledRestoreResumesToItsEnd() throws Exception {
    Submission s =
        restores.submit(RestoreRequest.local(backup.toString()), null, Pace.of(50.0, null));
    OperationView cancelled = restores.cancel(s.id());
    assertThat(cancelled.state())
        .isIn(OperationState.CANCELLED, OperationState.RUNNING, OperationState.QUEUED);
    assertThat(restores.await(s.id(), Duration.ofMinutes(1)).state())
        .isEqualTo(OperationState.CANCELLED);
    restores.pace(s.id(), Pace.UNLIMITED);
    restores.resume(s.id());
    assertThat(restores.await(s.id(), Duration.ofMinutes(2)).state())
        .isEqualTo(OperationState.COMPLETED);
  }
}
