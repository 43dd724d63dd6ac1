package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.verify.Verifier;

/** Two instances run the same operation: they share its accounts, and the store is exact. */
class TwoInstancesTest {

  @Test
  void twoInstancesShareOneOperation(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(10).withItemsPerAccount(300).withLargeRate(0),
        backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    SimpleMeterRegistry otherMeters = new SimpleMeterRegistry();
    try (RestoreFixture f = new RestoreFixture(5);
        RestoreEngine other = f.secondInstance("other", 5, otherMeters)) {
      // Own threads: the common pool has a single worker on a two-core machine.
      ExecutorService threads = Executors.newFixedThreadPool(2);
      String id =
          f.engine.submit(RestoreRequest.local(backup.toString()).withClusterSize(30), null);
      // Held to a pace (about 3 s for the 3,000 items), so neither instance is done before the
      // other starts on a fast machine.
      f.engine.bookkeeping().throttles().set(id, Pace.of(1000.0, null));
      CompletableFuture<OperationSummary> first =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return f.engine.run(id);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              threads);
      CompletableFuture<OperationSummary> second =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return other.run(id);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              },
              threads);
      OperationSummary a = first.get(120, TimeUnit.SECONDS);
      OperationSummary b = second.get(120, TimeUnit.SECONDS);
      assertThat(a.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(b.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(a.counts().itemsRestored()).isEqualTo(expected);
      double byFirst =
          f.registry.find("mailrestore.items").tag("outcome", "restored").counters().stream()
              .mapToDouble(c -> c.count())
              .sum();
      double bySecond =
          otherMeters.find("mailrestore.items").tag("outcome", "restored").counters().stream()
              .mapToDouble(c -> c.count())
              .sum();
      assertThat(byFirst).as("items restored by the first instance").isPositive();
      assertThat(bySecond).as("items restored by the second instance").isPositive();
      assertThat(byFirst + bySecond).isEqualTo((double) expected);
      threads.shutdown();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
