package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads the blobs of a backup from a local directory laid out by {@link BlobLayout}. */
public final class LocalBlobSource extends ProbingBlobSource {

  private final Path directory;
  private final PathFence fence;

  public LocalBlobSource(Path directory) {
    this(directory, PathFence.NONE);
  }

  public LocalBlobSource(Path directory, PathFence fence) {
    this.directory = directory;
    this.fence = fence;
  }

  @Override
  protected InputStream openStored(String name) throws IOException {
    try {
      return fence.open(directory.resolve(name));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  @Override
  protected String where(String name) {
    return directory.resolve(name).toString();
  }

  @Override
  public String toString() {
    return "local blob source " + directory;
  }
}
