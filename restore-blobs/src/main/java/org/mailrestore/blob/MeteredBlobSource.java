package org.mailrestore.blob;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Meters a source: reads (open to close) by outcome, bytes read, reads in flight. Tags: the
 * source's kind ({@code local}, {@code s3}) only.
 */
public final class MeteredBlobSource extends ForwardingBlobSource {

  private final Timer ok;
  private final Timer failed;
  private final Counter bytes;
  private final LongTaskTimer active;

  public MeteredBlobSource(BlobSource delegate, MeterRegistry registry, String kind) {
    super(delegate);
    this.ok = timer(registry, kind, "success");
    this.failed = timer(registry, kind, "failure");
    this.bytes =
        Counter.builder("mailrestore.blob.read.bytes")
            .description("Blob bytes read from backups (after decompression)")
            .baseUnit(BaseUnits.BYTES)
            .tag("kind", kind)
            .register(registry);
    // A long task timer, not a gauge: every source of a kind shares it, whatever opened it.
    this.active =
        LongTaskTimer.builder("mailrestore.blob.reads.active")
            .description("Blob reads in flight")
            .tag("kind", kind)
            .register(registry);
  }

  private static Timer timer(MeterRegistry registry, String kind, String outcome) {
    return Timer.builder("mailrestore.blob.reads")
        .description("Blob reads from backups, open to close")
        .tag("kind", kind)
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .register(registry);
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    long started = System.nanoTime();
    LongTaskTimer.Sample inFlight = active.start();
    InputStream in;
    try {
      in = delegate.open(digest);
    } catch (IOException | RuntimeException e) {
      inFlight.stop();
      failed.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
      throw e;
    }
    return new FilterInputStream(in) {
      private boolean failure;
      private boolean closed;

      @Override
      public int read() throws IOException {
        try {
          int b = in.read();
          if (b >= 0) {
            bytes.increment();
          }
          return b;
        } catch (IOException | RuntimeException e) {
          failure = true;
          throw e;
        }
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          int n = in.read(b, off, len);
          if (n > 0) {
            bytes.increment(n);
          }
          return n;
        } catch (IOException | RuntimeException e) {
          failure = true;
          throw e;
        }
      }

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          if (!closed) {
            closed = true;
            inFlight.stop();
            (failure ? failed : ok)
                .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
          }
        }
      }
    };
  }
}
