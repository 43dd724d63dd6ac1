package org.mailrestore.blob;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.io.IOException;
import java.io.InputStream;

/**
 * Meters a volume: writes by outcome, raw and stored bytes, writes in flight, syncs. Tags: the
 * volume's kind ({@code local}, {@code s3}, {@code packed-local}, {@code packed-s3}) only.
 */
public final class MeteredBlobVolume extends ForwardingBlobVolume {

  private final Timer ok;
  private final Timer failed;
  private final Timer syncs;
  private final Counter rawBytes;
  private final Counter storedBytes;
  private final LongTaskTimer active;

  public MeteredBlobVolume(BlobVolume delegate, MeterRegistry registry, String kind) {
    super(delegate);
    this.ok = writes(registry, kind, "success");
    this.failed = writes(registry, kind, "failure");
    this.syncs =
        Timer.builder("mailrestore.blob.syncs")
            .description("Volume syncs: blobs made durable before their rows commit")
            .tag("kind", kind)
            .publishPercentileHistogram()
            .register(registry);
    this.rawBytes =
        Counter.builder("mailrestore.blob.written.bytes")
            .description("Blob bytes written to volumes, before compression")
            .baseUnit(BaseUnits.BYTES)
            .tag("kind", kind)
            .register(registry);
    this.storedBytes =
        Counter.builder("mailrestore.blob.stored.bytes")
            .description("Blob bytes written to volumes, as stored (after compression)")
            .baseUnit(BaseUnits.BYTES)
            .tag("kind", kind)
            .register(registry);
    // A long task timer, not a gauge: every volume of a kind shares it, whatever opened it.
    this.active =
        LongTaskTimer.builder("mailrestore.blob.writes.active")
            .description("Blob writes in flight")
            .tag("kind", kind)
            .register(registry);
  }

  private static Timer writes(MeterRegistry registry, String kind, String outcome) {
    return Timer.builder("mailrestore.blob.writes")
        .description("Blob writes to volumes")
        .tag("kind", kind)
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry);
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    long started = System.nanoTime();
    LongTaskTimer.Sample inFlight = active.start();
    try {
      StoredBlob stored = delegate.write(digest, sizeHint, content);
      ok.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
      rawBytes.increment(stored.rawSize());
      storedBytes.increment(stored.storedSize());
      return stored;
    } catch (IOException | RuntimeException e) {
      failed.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
      throw e;
    } finally {
      inFlight.stop();
    }
  }

  @Override
  public void sync() throws IOException {
    long started = System.nanoTime();
    try {
      delegate.sync();
    } finally {
      syncs.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }
}
