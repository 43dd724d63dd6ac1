package org.mailrestore.blob.s3;

import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory a volume's uploads may hold at once. An upload keeps its blob in memory up to a part,
 * and a multipart upload several parts; before it starts, each reserves what it will hold and waits
 * while others hold the rest. So an S3 restore's heap does not grow with the size of the blobs in
 * flight (decision 0032). Each upload reserves once and holds nothing while it waits, so waits end;
 * a need larger than the whole budget takes all of it.
 */
final class UploadMemory {

  private static final int UNIT = 1024;

  private final int units;
  private final Semaphore free;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  UploadMemory(long bytes) {
    if (bytes < UNIT) {
      throw new IllegalArgumentException("an upload memory budget of " + bytes + " bytes");
    }
    this.units = (int) Math.min(Integer.MAX_VALUE, bytes / UNIT);
    this.free = new Semaphore(units, true);
  }

  /** What one upload holds until it is closed. */
  final class Reservation implements AutoCloseable {
    private final int taken;
    private boolean released;

    private Reservation(int taken) {
      this.taken = taken;
    }

    @Override
    public void close() {
      if (!released) {
        released = true;
        held.addAndGet(-(long) taken * UNIT);
        free.release(taken);
      }
    }
  }

  /** Waits until {@code bytes} (at most the whole budget) are free, and takes them. */
  Reservation reserve(long bytes) throws InterruptedIOException {
    int want = (int) Math.min(units, Math.max(1, (bytes + UNIT - 1) / UNIT));
    try {
      free.acquire(want);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for upload memory");
    }
    peak.accumulateAndGet(held.addAndGet((long) want * UNIT), Math::max);
    return new Reservation(want);
  }

  /** The most held at once so far, in bytes. */
  long peakBytes() {
    return peak.get();
  }
}
