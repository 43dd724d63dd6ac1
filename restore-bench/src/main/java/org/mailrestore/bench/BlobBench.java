package org.mailrestore.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.LocalBlobVolume;
import org.mailrestore.blob.Streams;
import org.mailrestore.blob.VerifyingInputStream;
import org.mailrestore.blob.pack.LocalPackStore;
import org.mailrestore.blob.pack.PackedBlobVolume;

/**
 * Blob volumes next to the raw limits of the same media, with the durability the restore uses
 * (fsync before rename; a completed upload). Local small blobs: a durable file per blob, the
 * one-file volume, the packed volume. Large blobs: a plain file copy against the verified volume
 * copy. S3 ({@link S3BlobBench}) when asked.
 */
final class BlobBench {

  record Params(
      int smallCount,
      int smallSize,
      long largeSize,
      int threads,
      List<Integer> bounds,
      int s3ObjectsPerBound,
      Duration latency,
      boolean s3,
      Path workDir) {}

  private final Params p;
  private final Report report;

  BlobBench(Params params, Report report) {
    this.p = params;
    this.report = report;
  }

  void run() throws Exception {
    report.context("durability", "fsync per file / per pack sync; S3: completed uploads");
    report.context("small blob size", p.smallSize());
    report.context("threads (local)", p.threads());
    localSmall();
    localLarge();
    if (p.s3()) {
      new S3BlobBench(p, report).run();
    }
  }

  // ---- local, small ------------------------------------------------------------------------

  /** {@code count} random blobs of {@code size} bytes, the same for the same seed. */
  static List<byte[]> randomBlobs(int count, int size, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<byte[]> blobs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] b = new byte[size];
      random.nextBytes(b);
      blobs.add(b);
    }
    return blobs;
  }

  private void localSmall() throws Exception {
    List<byte[]> blobs = randomBlobs(p.smallCount(), p.smallSize(), 1);
    List<BlobDigest> digests = blobs.stream().map(BlobDigest::ofContent).toList();
    String group = "local " + p.smallSize() / 1024 + " KiB blobs";

    Path raw = Files.createDirectories(p.workDir().resolve("raw-small"));
    for (int i = 0; i < 256; i++) {
      Files.createDirectories(raw.resolve(String.format("%02x", i)));
    }
    double rawSeconds =
        parallel(
            blobs.size(),
            p.threads(),
            i -> {
              // A plain durable file: create, write, fsync; named like the volume names blobs.
              Path file =
                  raw.resolve(BlobLayout.relativeName(digests.get(i), BlobCompression.NONE));
              try (FileChannel ch =
                  FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(blobs.get(i)));
                ch.force(true);
              }
            },
            () -> {});
    Report.Row limit =
        report.add(group, "raw: durable file per blob", blobs.size(), bytes(blobs), rawSeconds);

    try (BlobVolume volume = new LocalBlobVolume(p.workDir().resolve("volume-small"))) {
      double s = writeAll(volume, blobs, digests, p.threads());
      report.add(group, "local volume (file per blob)", blobs.size(), bytes(blobs), s, limit);
    }
    try (BlobVolume volume =
        new PackedBlobVolume(
            new LocalPackStore(
                p.workDir().resolve("packed/packs"), LocalPackStore.DEFAULT_MAX_PACK_SIZE),
            new LocalBlobVolume(p.workDir().resolve("packed/blobs")),
            PackedBlobVolume.DEFAULT_PACK_THRESHOLD,
            BlobCompression.NONE,
            0)) {
      double s = writeAll(volume, blobs, digests, p.threads());
      report.add(group, "packed-local volume", blobs.size(), bytes(blobs), s, limit);
    }
  }

  /** Writes every blob (verified as the restore does) with a sync per ~1000 blobs, timed. */
  static double writeAll(
      BlobVolume volume, List<byte[]> blobs, List<BlobDigest> digests, int threads)
      throws Exception {
    int syncEvery = Math.max(1, 1000 / threads);
    ThreadLocal<int[]> sinceSync = ThreadLocal.withInitial(() -> new int[1]);
    return parallel(
        blobs.size(),
        threads,
        i -> {
          byte[] b = blobs.get(i);
          volume.write(
              digests.get(i),
              b.length,
              new VerifyingInputStream(
                  new ByteArrayInputStream(b), digests.get(i), b.length, () -> "bench"));
          if (++sinceSync.get()[0] % syncEvery == 0) {
            volume.sync();
          }
        },
        volume::sync);
  }

  // ---- local, large ------------------------------------------------------------------------

  /** Copies are repeated and the fastest kept: page cache and write-back make single runs noisy. */
  private static final int LARGE_RUNS = 3;

  @FunctionalInterface
  interface Copy {
    void run(Path target) throws Exception;
  }

  private double fastest(Path dir, String name, Copy copy) throws Exception {
    double best = Double.MAX_VALUE;
    for (int run = 0; run < LARGE_RUNS; run++) {
      Path target = dir.resolve(name + "-" + run);
      long started = System.nanoTime();
      copy.run(target);
      best = Math.min(best, seconds(started));
      deleteTree(target);
    }
    return best;
  }

  private void localLarge() throws Exception {
    Path source = p.workDir().resolve("large.bin");
    BlobDigest digest = writeLargeSource(source);
    String group = "local " + p.largeSize() / (1 << 20) + " MiB blob";
    long size = p.largeSize();
    Path dir = Files.createDirectories(p.workDir().resolve("large"));

    double buffered =
        fastest(
            dir,
            "buffered",
            target -> {
              // A plain buffered copy, as any program copies a file, then fsync.
              try (InputStream in = Files.newInputStream(source);
                  FileChannel out =
                      FileChannel.open(
                          target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                Streams.copy(in, java.nio.channels.Channels.newOutputStream(out), size);
                out.force(true);
              }
            });
    Report.Row limit = report.add(group, "raw: buffered file copy + fsync", 1, size, buffered);
    double kernel =
        fastest(
            dir,
            "kernel",
            target -> {
              try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                  FileChannel out =
                      FileChannel.open(
                          target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                long done = 0;
                while (done < size) {
                  done += in.transferTo(done, size - done, out);
                }
                out.force(true);
              }
            });
    report.add(group, "raw: kernel copy + fsync", 1, size, kernel);
    double hash =
        fastest(
            dir,
            "hash",
            target -> {
              // What verification alone costs: read and SHA-256, nothing written.
              MessageDigest sha = BlobDigest.newSha256();
              byte[] buffer = new byte[Streams.LARGE_BUFFER];
              try (InputStream in = Files.newInputStream(source)) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  sha.update(buffer, 0, n);
                }
              }
            });
    report.add(group, "raw: read + SHA-256, no write", 1, size, hash);
    double volume =
        fastest(
            dir,
            "volume",
            target -> {
              try (BlobVolume v = new LocalBlobVolume(target);
                  InputStream in =
                      new VerifyingInputStream(
                          Files.newInputStream(source), digest, size, source::toString)) {
                v.write(digest, size, in);
                v.sync();
              }
            });
    report.add(group, "local volume (verified copy)", 1, size, volume, limit);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private BlobDigest writeLargeSource(Path file) throws IOException {
    MessageDigest sha = BlobDigest.newSha256();
    SplittableRandom random = new SplittableRandom(7);
    byte[] chunk = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long written = 0; written < p.largeSize(); written += chunk.length) {
        random.nextBytes(chunk);
        int n = (int) Math.min(chunk.length, p.largeSize() - written);
        out.write(chunk, 0, n);
        sha.update(chunk, 0, n);
      }
    }
    return BlobDigest.of(sha.digest());
  }

  // ---- S3 ----------------------------------------------------------------------------------

  // ---- helpers -----------------------------------------------------------------------------

  @FunctionalInterface
  interface Task {
    void run(int index) throws Exception;
  }

  @FunctionalInterface
  interface Finish {
    void run() throws Exception;
  }

  /** Runs {@code task} for every index on {@code threads} threads; returns the wall time. */
  static double parallel(int count, int threads, Task task, Finish finish) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long started = System.nanoTime();
      List<Future<Object>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        futures.add(
            pool.submit(
                (Callable<Object>)
                    () -> {
                      for (int i = first; i < count; i += threads) {
                        task.run(i);
                      }
                      return null;
                    }));
      }
      for (Future<Object> f : futures) {
        f.get();
      }
      finish.run();
      return seconds(started);
    } finally {
      pool.shutdownNow();
    }
  }

  static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  static long bytes(List<byte[]> blobs) {
    return blobs.stream().mapToLong(b -> b.length).sum();
  }
}
