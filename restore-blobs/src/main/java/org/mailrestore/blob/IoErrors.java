package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * An I/O error in words a person can act on. Java's file system errors often carry the path alone
 * as their message ({@code /srv/volume/d0}); this says what is wrong with it.
 */
public final class IoErrors {

  private IoErrors() {}

  public static String describe(IOException e) {
    if (e instanceof FileSystemException f) {
      String file = f.getFile() == null ? "" : f.getFile();
      String other = f.getOtherFile() == null ? "" : " -> " + f.getOtherFile();
      return file + other + ": " + (f.getReason() != null ? f.getReason() : what(f));
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  private static String what(FileSystemException e) {
    return switch (e) {
      case AccessDeniedException denied -> "permission denied";
      case FileAlreadyExistsException exists -> "a file of that name is in the way";
      case NoSuchFileException missing -> "no such file or directory";
      case NotDirectoryException notDirectory -> "not a directory";
      case DirectoryNotEmptyException notEmpty -> "the directory is not empty";
      default -> e.getClass().getSimpleName();
    };
  }
}
