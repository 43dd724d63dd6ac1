package org.mailrestore.blob.pack;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where a {@link PackedBlobVolume} keeps its packs: large files or objects that small blobs are
 * appended to. Implementations are safe for concurrent use.
 */
public interface PackStore extends AutoCloseable {

  /** Where appended bytes went. */
  record Slot(String pack, long offset) {}

  /** Appends bytes to the current pack; they are durable once {@link #sync()} returns. */
  Slot append(byte[] bytes, int offset, int length) throws IOException;

  /** Reads {@code length} bytes of a pack from {@code offset}. */
  InputStream read(String pack, long offset, long length) throws IOException;

  /** Makes everything appended so far durable. */
  void sync() throws IOException;

  String describe();

  /** Checks that packs can be written now; see {@link org.mailrestore.blob.BlobVolume#check}. */
  void check() throws IOException;

  @Override
  default void close() throws IOException {}
}
