package org.mailrestore.restore;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;

/**
 * The restore's meters. Tags are bounded (outcome, item type, reason, phase): never an account or
 * operation id, so a server restoring a million accounts exports the same few series.
 */
public final class RestoreMetrics {

  private final MeterRegistry registry;
  private final AtomicInteger activeAccounts = new AtomicInteger();
  private final AtomicInteger activeClusters = new AtomicInteger();
  private final AtomicInteger waitingTransfers = new AtomicInteger();
  private final Timer clusterCommit;
  private final Timer blobTransfer;
  private final Counter bytesRestored;
  private final Counter dedupHits;
  private final Counter dbRetries;

  public RestoreMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.clusterCommit =
        Timer.builder("mailrestore.cluster.commit")
            .description("Time to commit one cluster: rows, id map, checkpoint, counters")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(30))
            .register(registry);
    this.blobTransfer =
        Timer.builder("mailrestore.blob.transfer")
            .description("Time to copy one blob from the backup to the volume, verified")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofSeconds(60))
            .register(registry);
    this.bytesRestored =
        Counter.builder("mailrestore.restored.bytes")
            .description("Bytes of item blobs restored (deduplicated ones included)")
            .baseUnit(BaseUnits.BYTES)
            .register(registry);
    this.dedupHits =
        Counter.builder("mailrestore.dedup.hits")
            .description("Blobs not written because the volume already held them")
            .register(registry);
    registry.gauge("mailrestore.accounts.active", activeAccounts);
    registry.gauge("mailrestore.clusters.active", activeClusters);
    registry.gauge("mailrestore.blob.transfers.waiting", waitingTransfers);
    this.dbRetries =
        Counter.builder("mailrestore.db.retries")
            .description(
                "Database calls retried after a passing failure (restart, lost connection)")
            .register(registry);
  }

  /** Meters kept in memory only, for tools and tests that export nothing. */
  public static RestoreMetrics inMemory() {
    return new RestoreMetrics(new SimpleMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void items(String outcome, @Nullable ItemType type, long count) {
    if (count > 0) {
      Counter.builder("mailrestore.items")
          .description(
              "Items handled, by outcome (restored, skipped, failed, not_carried) and type")
          .tag("outcome", outcome)
          .tag("type", type == null ? "unknown" : type.wireName())
          .register(registry)
          .increment(count);
    }
  }

  public void failure(FailureReason reason) {
    Counter.builder("mailrestore.failures")
        .description("Failures and repairs recorded, by reason")
        .tag("reason", reason.name().toLowerCase(Locale.ROOT))
        .tag("severity", reason.isWarning() ? "warning" : "error")
        .register(registry)
        .increment();
  }

  public void bytes(long count) {
    bytesRestored.increment(count);
  }

  public void dedupHits(long count) {
    dedupHits.increment(count);
  }

  public Timer clusterCommit() {
    return clusterCommit;
  }

  public Timer blobTransfer() {
    return blobTransfer;
  }

  public void phase(Phase phase, long millis) {
    Timer.builder("mailrestore.phase")
        .description("Duration of restore phases")
        .tag("phase", phase.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .record(Duration.ofMillis(millis));
  }

  public void clusterStarted() {
    activeClusters.incrementAndGet();
  }

  public void clusterFinished() {
    activeClusters.decrementAndGet();
  }

  /** Blob copies waiting for a transfer permit: the queue in front of the storage. */
  public void blobTransferWaiting(int delta) {
    waitingTransfers.addAndGet(delta);
  }

  public void databaseRetry() {
    dbRetries.increment();
  }

  public void accountStarted() {
    activeAccounts.incrementAndGet();
  }

  /** An account's phase 2 ended (restored, partial, failed, skipped). */
  public void accountDone(AccountState state) {
    Counter.builder("mailrestore.accounts.done")
        .description("Accounts whose phase 2 ended, by outcome")
        .tag("outcome", state.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  public void accountFinished() {
    activeAccounts.decrementAndGet();
  }
}
