package org.mailrestore.export;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;

/** What every export does with files: a fresh output, files whole or not at all. */
public final class ExportFiles {

  private ExportFiles() {}

  /** The output directory, created when missing; refused when it holds anything. */
  public static Path emptyDirectory(Path out) throws IOException {
    Path root = out.toAbsolutePath().normalize();
    Files.createDirectories(root);
    try (var entries = Files.list(root)) {
      if (entries.findAny().isPresent()) {
        throw new FileAlreadyExistsException(root + " is not empty; export into a new directory");
      }
    }
    return root;
  }

  /**
   * Writes through a temporary file, so a file is there whole or not at all.
   *
   * @param modified the file's modification time, or null for now
   */
  public static void write(InputStream in, Path file, FileTime modified) throws IOException {
    if (Files.exists(file)) {
      throw new FileAlreadyExistsException(file.toString());
    }
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(".export-" + file.getFileName() + ".tmp");
    try {
      Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
      if (modified != null) {
        Files.setLastModifiedTime(temp, modified);
      }
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
