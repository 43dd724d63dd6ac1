package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.s3.S3BlobVolume;
import org.mailrestore.blob.s3.S3Clients;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3Settings;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A process writing a large blob is killed with SIGKILL in the middle: afterwards nothing is
 * visible under the blob's name, and writing it again works. Local and S3 volumes.
 */
class KilledWriterLeavesNothingTest {

  /** Size of the blob the child writes: large enough to be mid-way when killed. */
  static final long SIZE = 512L << 20;

  /** A deterministic stream of {@code size} bytes, slowed down so the parent can kill mid-way. */
  static final class SlowStream extends InputStream {
    private long remaining;

    SlowStream(long size) {
      this.remaining = size;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (remaining == 0) {
        return -1;
      }
      int n = (int) Math.min(Math.min(len, 1 << 20), remaining);
      for (int i = 0; i < n; i++) {
        b[off + i] = (byte) ((remaining - i) * 31);
      }
      remaining -= n;
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return n;
    }
  }

  static final BlobDigest DIGEST = BlobDigest.parse("ab".repeat(32));

  /** The child: writes a large blob to the volume named by its arguments, slowly. */
  public static void main(String[] args) throws IOException {
    BlobVolume volume =
        args[0].equals("local")
            ? new LocalBlobVolume(Path.of(args[1]))
            : new S3BlobVolume(
                S3Clients.create(
                    S3Settings.of(java.net.URI.create(args[2]), "us-east-1", args[3], args[4]),
                    null),
                new S3Location(args[1], "volume/"));
    System.out.println("writing");
    System.out.flush();
    volume.write(DIGEST, SIZE, new SlowStream(SIZE));
    System.out.println("finished"); // not reached: the parent kills it first
  }

  private static Process child(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx128m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KilledWriterLeavesNothingTest.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static void killMidWay(Process child, java.util.function.BooleanSupplier started)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!started.getAsBoolean()) {
      assertThat(child.isAlive()).as("the writer is running").isTrue();
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(20);
    }
    Thread.sleep(300); // some megabytes into the blob
    assertThat(child.isAlive()).isTrue();
    child.destroyForcibly();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void localVolume(@TempDir Path dir) throws Exception {
    Path volume = dir.resolve("volume");
    Process child = child("local", volume.toString());
    killMidWay(child, () -> !files(volume).isEmpty());
    assertThat(files(volume)).isNotEmpty().allMatch(name -> name.startsWith(".tmp-"));
    assertThat(volume.resolve(BlobLayout.relativeName(DIGEST, BlobCompression.NONE)))
        .doesNotExist();
  }

  @Test
  void s3Volume() throws Exception {
    S3Server server = TestS3.server();
    String bucket = TestS3.createBucket();
    Process child =
        child("s3", bucket, server.endpoint().toString(), server.accessKey(), server.secretKey());
    try (S3Client s3 = TestS3.client(server)) {
      killMidWay(child, () -> !s3.listMultipartUploads(b -> b.bucket(bucket)).uploads().isEmpty());
      assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents()).isEmpty();
    }
  }

  private static List<String> files(Path root) {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
