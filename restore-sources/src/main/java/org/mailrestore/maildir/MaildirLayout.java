package org.mailrestore.maildir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** How a user's mail is laid out under their directory. */
public enum MaildirLayout {
  /** Per user: {@link #MAILDIR} when the directory has {@code cur/} or {@code new/}, else plain. */
  AUTO,
  /**
   * Maildir++: the inbox in {@code cur/} and {@code new/}, folders in {@code .Name.Sub/}
   * directories with their own {@code cur/} and {@code new/}, flags in the file names ({@code
   * :2,FRS}).
   */
  MAILDIR,
  /**
   * One file per message in nested folders, no {@code cur/new/tmp} (the Enron corpus): every
   * directory is a folder, every regular file a message; files directly under the user's directory
   * go to the Inbox.
   */
  PLAIN;

  public static MaildirLayout parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown Maildir layout \"" + text + "\": use auto, maildir or plain", e);
    }
  }

  /** The layout of one user's directory. */
  MaildirLayout resolve(Path userDir) {
    if (this != AUTO) {
      return this;
    }
    return Files.isDirectory(userDir.resolve("cur")) || Files.isDirectory(userDir.resolve("new"))
        ? MAILDIR
        : PLAIN;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
