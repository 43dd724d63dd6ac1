package org.mailrestore.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The {@link MailSource#identity} of a local file or directory: its device and inode, which a file
 * or directory put in its place does not share (its creation time where the file system has no
 * inodes).
 */
public final class LocalIdentity {

  private LocalIdentity() {}

  /**
   * @throws IOException when the path is gone or cannot be looked at
   */
  public static String of(Path path) throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    Object key = a.fileKey();
    return (a.isDirectory() ? "directory " : "file ") + (key != null ? key : a.creationTime());
  }
}
