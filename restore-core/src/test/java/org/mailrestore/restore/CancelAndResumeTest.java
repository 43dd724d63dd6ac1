package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.verify.Verifier;

/**
 * Cancel stops new work promptly, lets clusters in flight finish, and leaves the operation
 * resumable; a resume completes it exactly. A cancel made on another instance reaches the one
 * running the operation through the database.
 */
class CancelAndResumeTest {

  @TempDir Path dir;

  private Path backup() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(6).withItemsPerAccount(600).withLargeRate(0), backup);
    return backup;
  }

  private static void awaitClusters(RestoreFixture f, long atLeast) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (f.count("SELECT COUNT(*) FROM restore_cluster") < atLeast) {
      assertThat(System.nanoTime()).as("the restore progresses").isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  @Test
  void cancelThenResumeCompletesExactly() throws Exception {
    Path backup = backup();
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      String id =
          f.engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
      // Slow enough that the cancel finds it running, whatever the target's speed.
      f.engine.bookkeeping().throttles().set(id, Pace.of(1000.0, null));
      CompletableFuture<OperationSummary> run = f.runInBackground(id);
      awaitClusters(f, 10);
      f.engine.cancel(id);
      OperationSummary cancelled = run.get(60, TimeUnit.SECONDS);
      assertThat(cancelled.state()).isEqualTo(OperationState.CANCELLED);
      assertThat(cancelled.counts().itemsRestored()).isPositive().isLessThan(expected);
      assertThat(f.engine.bookkeeping().accounts().list(id)).allMatch(a -> a.leaseOwner() == null);

      OperationSummary resumed = f.engine.run(id);
      assertThat(resumed.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(resumed.counts().itemsRestored()).isEqualTo(expected);
      assertThat(resumed.counts().itemsSkipped()).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  @Test
  void aCancelOnAnotherInstanceReachesTheOneRunning() throws Exception {
    Path backup = backup();
    try (RestoreFixture f = new RestoreFixture(3);
        RestoreEngine other = f.secondInstance("other", 3, new SimpleMeterRegistry())) {
      String id =
          f.engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(40), null);
      // Slow enough that the cancel finds it running, whatever the target's speed.
      f.engine.bookkeeping().throttles().set(id, Pace.of(1000.0, null));
      CompletableFuture<OperationSummary> run = f.runInBackground(id);
      awaitClusters(f, 5);
      other.cancel(id);
      assertThat(run.get(60, TimeUnit.SECONDS).state()).isEqualTo(OperationState.CANCELLED);
    }
  }

  @Test
  void anOperationNobodyRunsIsCancelledAtOnceAndAnEndedOneCannotBe() throws Exception {
    Path backup = backup();
    try (RestoreFixture f = new RestoreFixture(3)) {
      String queued = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      f.engine.cancel(queued);
      OperationSummary cancelled = f.engine.operations().find(queued).orElseThrow();
      assertThat(cancelled.state()).isEqualTo(OperationState.CANCELLED);
      assertThat(f.engine.interrupted()).doesNotContain(queued);

      OperationSummary resumed = f.engine.run(queued);
      assertThat(resumed.state()).isEqualTo(OperationState.COMPLETED);
      assertThatThrownBy(() -> f.engine.cancel(queued))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("COMPLETED");
      assertThatThrownBy(() -> f.engine.cancel("no-such-operation"))
          .isInstanceOf(java.util.NoSuchElementException.class);
    }
  }
}
