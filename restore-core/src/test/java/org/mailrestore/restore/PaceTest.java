package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.verify.Verifier;

/**
 * A restore into a live server can be held to a pace: the rate over half a minute stays within 10 %
 * of it, and a change made while it runs applies within seconds.
 */
class PaceTest {

  @TempDir Path dir;

  private Path backup(int accounts, int items) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(accounts).withItemsPerAccount(items).withLargeRate(0),
        backup);
    return backup;
  }

  private static double itemsPerSecond(OperationSummary s) {
    return (s.counts().itemsRestored() + s.counts().itemsSkipped()) / (s.dataMillis() / 1000.0);
  }

  @Test
  void aRestoreHeldTo250ItemsPerSecondRunsWithin10PercentOfItForHalfAMinute() throws Exception {
    Path backup = backup(3, 2700);
    try (RestoreFixture f = new RestoreFixture()) {
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      f.engine.bookkeeping().throttles().set(id, Pace.of(250.0, null));
      OperationSummary s = f.engine.run(id);
      assertThat(s.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(s.dataMillis()).as("long enough to measure a rate").isGreaterThan(30_000L);
      assertThat(itemsPerSecond(s)).isBetween(225.0, 275.0);
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  @Test
  void aPaceChangedWhileTheRestoreRunsAppliesWithinSeconds() throws Exception {
    Path backup = backup(2, 3000);
    try (RestoreFixture f = new RestoreFixture()) {
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      f.engine.bookkeeping().throttles().set(id, Pace.of(100.0, null));
      CompletableFuture<OperationSummary> run = f.runInBackground(id);
      Thread.sleep(6_000);
      long early = StoreContents.messages(f);
      assertThat(early).as("held to 100/s for 6 s").isLessThan(900);
      f.engine.bookkeeping().throttles().set(id, Pace.UNLIMITED);
      // At 100/s the rest would take about a minute; unbounded it takes seconds.
      OperationSummary s = run.get(45, TimeUnit.SECONDS);
      assertThat(s.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(f.engine.bookkeeping().throttles().get(id)).isEqualTo(Pace.UNLIMITED);
    }
  }
}
