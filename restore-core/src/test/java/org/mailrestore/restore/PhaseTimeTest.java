package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;

/**
 * A phase's time is recorded as it passes, not only at its end: a process killed in phase 2 leaves
 * most of its part in the operation's row, so the run that resumes it reports phase 2's time and
 * rate for the whole operation, not for its own last part.
 */
class PhaseTimeTest {

  @TempDir Path dir;

  @Test
  void phase2sTimeIsInTheOperationsRowWhilePhase2Runs() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(600).withLargeRate(0), backup);
    // A lease of 3 s: the heartbeat, which records the time, beats every second.
    try (RestoreFixture f = new RestoreFixture(3)) {
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      f.engine.bookkeeping().throttles().set(id, Pace.of(150.0, null));
      long started = System.nanoTime();
      CompletableFuture<OperationSummary> run = f.runInBackground(id);
      OperationSummary during = f.engine.operations().find(id).orElseThrow();
      while (during.phase() != Phase.DATA
          || during.dataMillis() == null
          || during.dataMillis() < 2_000) {
        assertThat(run).as("phase 2's time recorded before phase 2 ends").isNotDone();
        Thread.sleep(100);
        during = f.engine.operations().find(id).orElseThrow();
      }
      assertThat(during.state()).isEqualTo(OperationState.RUNNING);

      OperationSummary ended = run.get(60, TimeUnit.SECONDS);
      long wallMillis = (System.nanoTime() - started) / 1_000_000;
      assertThat(ended.state()).isEqualTo(OperationState.COMPLETED);
      // Each part recorded once: at least what was seen during phase 2, at most the run's time.
      assertThat(ended.dataMillis()).isBetween(during.dataMillis(), wallMillis);
    }
  }
}
