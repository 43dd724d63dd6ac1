package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecoratorsTest {

  static final byte[] BLOB = new byte[300_000];

  static {
    new Random(1).nextBytes(BLOB);
  }

  static final BlobDigest DIGEST = BlobDigest.ofContent(BLOB);
  static final RetryPolicy FAST = new RetryPolicy(5, Duration.ofMillis(1), Duration.ofMillis(5));

  /** Fails the first opens, then breaks each stream once mid-way, as a flaky network does. */
  static final class FlakySource implements BlobSource {
    final AtomicInteger opens = new AtomicInteger();
    final int failingOpens;
    final int breakAt;

    FlakySource(int failingOpens, int breakAt) {
      this.failingOpens = failingOpens;
      this.breakAt = breakAt;
    }

    @Override
    public InputStream open(BlobDigest digest) throws IOException {
      int n = opens.incrementAndGet();
      if (n <= failingOpens) {
        throw new BlobException(BlobException.Reason.IO_ERROR, "503 SlowDown");
      }
      InputStream in = new ByteArrayInputStream(BLOB);
      if (n > failingOpens + 1) {
        return in;
      }
      return new FilterInputStream(in) {
        long read;

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (read >= breakAt) {
            throw new SocketException("Connection reset");
          }
          int got = super.read(b, off, (int) Math.min(len, breakAt - read));
          read += Math.max(0, got);
          return got;
        }
      };
    }

    @Override
    public String describe(BlobDigest digest) {
      return "flaky";
    }
  }

  @Test
  void retriesOpensAndResumesBrokenStreamsToTheExactBytes() throws IOException {
    FlakySource flaky = new FlakySource(2, 123_457);
    List<Throwable> retries = new ArrayList<>();
    RetryingBlobSource source = new RetryingBlobSource(flaky, FAST, (d, e) -> retries.add(e));
    try (InputStream in = source.openVerified(DIGEST, BLOB.length)) {
      assertThat(in.readAllBytes()).isEqualTo(BLOB);
    }
    assertThat(retries).hasSize(3);
    assertThat(flaky.opens).hasValue(4);
  }

  @Test
  void missingAndDamagedBlobsAreNotRetried() {
    AtomicInteger opens = new AtomicInteger();
    BlobSource missing =
        new BlobSource() {
          @Override
          public InputStream open(BlobDigest digest) throws IOException {
            opens.incrementAndGet();
            throw new BlobException(BlobException.Reason.MISSING, "no such blob");
          }

          @Override
          public String describe(BlobDigest digest) {
            return "nowhere";
          }
        };
    RetryingBlobSource source = new RetryingBlobSource(missing, FAST, (d, e) -> {});
    assertThatThrownBy(() -> source.open(DIGEST)).isInstanceOf(BlobException.class);
    assertThat(opens).hasValue(1);
  }

  @Test
  void theCheckIsTheInnermostSourcesWhileTheBytesPassEveryDecorator() throws IOException {
    AtomicInteger ownChecks = new AtomicInteger();
    BlobSource checksItself =
        new BlobSource() {
          @Override
          public InputStream open(BlobDigest digest) {
            return new ByteArrayInputStream(BLOB);
          }

          @Override
          public InputStream verifying(BlobDigest digest, long expectedSize, InputStream in) {
            ownChecks.incrementAndGet();
            return in;
          }

          @Override
          public String describe(BlobDigest digest) {
            return "its own check";
          }
        };
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BlobSource stack =
        new MeteredBlobSource(
            new BoundedBlobSource(new RetryingBlobSource(checksItself, FAST, (d, e) -> {}), 2),
            registry,
            "local");
    try (InputStream in = stack.openVerified(DIGEST, BLOB.length)) {
      assertThat(in.readAllBytes()).isEqualTo(BLOB);
    }
    assertThat(ownChecks).hasValue(1);
    assertThat(registry.get("mailrestore.blob.read.bytes").counter().count())
        .isEqualTo(BLOB.length);
  }

  @Test
  void givesUpAfterTheLastAttempt() {
    RetryingBlobSource source = new RetryingBlobSource(new FlakySource(100, 0), FAST, (d, e) -> {});
    assertThatThrownBy(() -> source.open(DIGEST)).hasMessageContaining("503");
  }

  @Test
  void boundsTheReadsInFlight() throws Exception {
    AtomicInteger open = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    BlobSource counting =
        new BlobSource() {
          @Override
          public InputStream open(BlobDigest digest) {
            peak.accumulateAndGet(open.incrementAndGet(), Math::max);
            return new FilterInputStream(new ByteArrayInputStream(BLOB)) {
              @Override
              public void close() throws IOException {
                open.decrementAndGet();
                super.close();
              }
            };
          }

          @Override
          public String describe(BlobDigest digest) {
            return "counting";
          }
        };
    BlobSource bounded = new BoundedBlobSource(counting, 3);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> reads = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        reads.add(
            pool.submit(() -> {
              try (InputStream in = bounded.open(DIGEST)) {
                Thread.sleep(2);
                return in.readAllBytes().length;
              }
            }));
      }
      for (Future<?> r : reads) {
        r.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(peak.get()).isBetween(1, 3);
    assertThat(open).hasValue(0);
  }

  @Test
  void metersCountReadsWritesAndBytes(@TempDir Path dir) throws IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BlobSource source =
        new MeteredBlobSource(new FlakySource(0, Integer.MAX_VALUE), registry, "test");
    BlobVolume volume = new MeteredBlobVolume(new LocalBlobVolume(dir), registry, "local");
    try (InputStream in = source.openVerified(DIGEST, BLOB.length)) {
      volume.write(DIGEST, BLOB.length, in);
    }
    volume.sync();
    assertThat(registry.get("mailrestore.blob.reads").tag("outcome", "success").timer().count())
        .isEqualTo(1);
    assertThat(registry.get("mailrestore.blob.read.bytes").counter().count())
        .isEqualTo(BLOB.length);
    assertThat(
            registry
                .get("mailrestore.blob.writes")
                .tag("kind", "local")
                .tag("outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("mailrestore.blob.written.bytes").counter().count())
        .isEqualTo(BLOB.length);
    assertThat(registry.get("mailrestore.blob.syncs").timer().count()).isEqualTo(1);
    assertThat(registry.get("mailrestore.blob.writes.active").longTaskTimer().activeTasks())
        .isZero();
  }
}
