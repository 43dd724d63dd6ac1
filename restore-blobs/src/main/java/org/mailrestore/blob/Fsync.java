package org.mailrestore.blob;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Durability on local disks. */
public final class Fsync {

  private Fsync() {}

  /**
   * Forces a directory's entries to disk, which makes the files created or renamed in it durable
   * (Linux allows fsync on a directory opened to read).
   */
  public static void directory(Path directory) throws IOException {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      if (!System.getProperty("os.name", "").startsWith("Windows")) {
        throw e;
      }
      // Windows cannot open directories as channels; NTFS journals renames itself.
    }
  }
}
