package org.mailrestore.destination;

import java.io.IOException;
import java.io.InputStream;
import org.mailrestore.blob.BlobDigest;

/**
 * The source's content by digest, as the engine lends it to a target: each read waits for its turn
 * within the engine's bound on copies in flight (over every account and operation), and its bytes
 * are checked against the digest and size as they stream.
 */
public interface SourceContent {

  /** Content from this size on also takes one of the few large-copy turns (bigger buffers). */
  long LARGE = 8L << 20;

  /** What a target does with the content's bytes. */
  @FunctionalInterface
  interface Reading<T> {
    T read(InputStream in) throws IOException;
  }

  /**
   * How many reads can have their turn at once: more readers than this only wait (a target copying
   * many blobs needs no more copiers).
   */
  int turns();

  /**
   * Opens the content, hands it to {@code reading}, and closes it.
   *
   * @param size the declared size, or -1 when none is declared
   * @throws org.mailrestore.blob.BlobException when it is missing, or differs from its digest or
   *     size (the stream fails as it ends)
   * @throws IOException when it cannot be read
   * @throws InterruptedException when interrupted while waiting for a turn
   */
  <T> T read(BlobDigest digest, long size, Reading<T> reading)
      throws IOException, InterruptedException;
}
