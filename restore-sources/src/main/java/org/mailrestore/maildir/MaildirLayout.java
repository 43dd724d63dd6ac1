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
    return isMaildir(userDir) ? MAILDIR : PLAIN;
  }

  /**
   * Where a user's mail is: the user's directory, or its {@code Maildir/} when the directory is a
   * home holding one (Dovecot's {@code maildir:~/Maildir}, as {@code /var/vmail/<domain>/<user>/}
   * or {@code /home/<user>/} are laid out).
   */
  Path mailbox(Path userDir) {
    Path inner = userDir.resolve("Maildir");
    return this != PLAIN && !isMaildir(userDir) && isMaildir(inner) ? inner : userDir;
  }

  private static boolean isMaildir(Path dir) {
    return Files.isDirectory(dir.resolve("cur")) || Files.isDirectory(dir.resolve("new"));
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
