package org.mailrestore.mailstore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobVolume;

/**
 * The volume a mailbox writer's blobs go to, with its rows and what this process knows of them: the
 * digests it recorded (decision 0080) and the writes it has in flight (decision 0082). Every
 * account's writer of a target holds the same parts.
 *
 * @param id the volume's id in {@code volume}
 */
record WritableVolume(
    BlobVolume volume, int id, VolumeStore rows, RecordedDigests recorded, WritesInFlight flights) {

  /** Writes content held in memory, once in this process ({@link WritesInFlight#once}). */
  WritesInFlight.Written writeOnce(BlobDigest digest, byte[] bytes) throws IOException {
    return flights.once(
        digest, () -> volume.write(digest, bytes.length, new ByteArrayInputStream(bytes)));
  }

  /**
   * Writes a stream, once in this process: when another write of the digest is in flight, its blob
   * is taken and the stream is left unread.
   */
  WritesInFlight.Written writeOnce(BlobDigest digest, long size, InputStream in)
      throws IOException {
    return flights.once(digest, () -> volume.write(digest, size, in));
  }
}
