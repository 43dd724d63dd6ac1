package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LocalBlobSourceTest extends BlobSourceContract {

  @TempDir Path directory;

  @Override
  protected void place(BlobDigest digest, BlobCompression compression, byte[] stored)
      throws IOException {
    Path file = directory.resolve(BlobLayout.relativeName(digest, compression));
    Files.createDirectories(file.getParent());
    Files.write(file, stored);
  }

  @Override
  protected BlobSource source() {
    return new LocalBlobSource(directory);
  }
}
