package org.mailrestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lays a corpus of plain one-file-per-message folders (the Enron layout: {@code
 * <user>/<folder>/<sub>/<n>.}) out as real Maildir++ trees that Dovecot reads too: one mailbox per
 * user with {@code cur/new/tmp}, each folder a {@code .folder.sub} directory, every message a hard
 * link in {@code cur/} marked seen.
 */
final class MaildirTree {

  private MaildirTree() {}

  /** Lays out every user of {@code corpus} under {@code tree}; returns the messages laid out. */
  static long layOut(Path corpus, Path tree) throws IOException {
    Path users = Files.isDirectory(corpus.resolve("maildir")) ? corpus.resolve("maildir") : corpus;
    long messages = 0;
    List<Path> userDirs;
    try (Stream<Path> s = Files.list(users)) {
      userDirs = s.filter(Files::isDirectory).sorted().toList();
    }
    for (Path user : userDirs) {
      Path mailbox = tree.resolve(user.getFileName().toString());
      maildir(mailbox);
      List<Path> files;
      try (Stream<Path> s = Files.walk(user)) {
        files = s.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path file : files) {
        Path folder = user.relativize(file.getParent());
        boolean inbox =
            folder.toString().isEmpty()
                || (folder.getNameCount() == 1 && folder.toString().equalsIgnoreCase("inbox"));
        Path target = inbox ? mailbox : mailbox.resolve(maildirPlusName(folder));
        maildir(target);
        messages++;
        Files.createLink(target.resolve("cur").resolve(messages + ".corpus:2,S"), file);
      }
    }
    return messages;
  }

  /** {@code count} messages in one Maildir folder, the tree's files taken in turn (hard links). */
  static long oneFolder(Path tree, Path folder, int count) throws IOException {
    List<Path> files = messages(tree);
    Path cur = folder.resolve("cur");
    Files.createDirectories(cur);
    Files.createDirectories(folder.resolve("new"));
    Files.createDirectories(folder.resolve("tmp"));
    for (int i = 0; i < count; i++) {
      Files.createLink(cur.resolve(i + ".bench:2,S"), files.get(i % files.size()));
    }
    return count;
  }

  /**
   * {@code count} distinct messages in one Maildir folder: the tree's messages in turn, each copy
   * after the first pass with a header {@code X-Bench-Copy} of its own in front (so no two messages
   * share a digest, as in a real folder).
   */
  static long distinctFolder(Path tree, Path folder, int count) throws IOException {
    return distinctFolder(tree, folder, count, 0);
  }

  /**
   * As {@link #distinctFolder(Path, Path, int)}, numbering the copies from {@code first}: a folder
   * whose messages share no digest with another made from a lower {@code first}.
   */
  static long distinctFolder(Path tree, Path folder, int count, int first) throws IOException {
    List<Path> files = messages(tree);
    Path cur = folder.resolve("cur");
    Files.createDirectories(cur);
    Files.createDirectories(folder.resolve("new"));
    Files.createDirectories(folder.resolve("tmp"));
    for (int n = 0; n < count; n++) {
      int i = first + n;
      byte[] message = Files.readAllBytes(files.get(i % files.size()));
      try (var out = Files.newOutputStream(cur.resolve(n + ".bench:2,S"))) {
        if (i >= files.size()) {
          out.write(copyHeader(message, i));
        }
        out.write(message);
      }
    }
    return count;
  }

  /**
   * The tree's folders again under {@code copy}, each message made distinct as {@link
   * #distinctFolder(Path, Path, int, int)} makes it (numbered from {@code first}): a tree of the
   * same shape whose messages share no digest with the tree's.
   */
  static long distinctTree(Path tree, Path copy, int first) throws IOException {
    List<Path> files = messages(tree);
    for (int n = 0; n < files.size(); n++) {
      Path file = files.get(n);
      Path target = copy.resolve(tree.relativize(file));
      Path folder = target.getParent().getParent();
      maildir(folder);
      byte[] message = Files.readAllBytes(file);
      try (var out = Files.newOutputStream(target)) {
        out.write(copyHeader(message, first + n));
        out.write(message);
      }
    }
    return files.size();
  }

  /** {@code X-Bench-Copy: n} with the message's own line ending. */
  private static byte[] copyHeader(byte[] message, int n) {
    int lf = indexOf(message, (byte) '\n');
    boolean crlf = lf > 0 && message[lf - 1] == '\r';
    return ("X-Bench-Copy: " + n + (crlf ? "\r\n" : "\n"))
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** The messages of a laid-out tree, in a stable order. */
  private static List<Path> messages(Path tree) throws IOException {
    try (Stream<Path> s = Files.walk(tree)) {
      // The messages only: doveadm import leaves its index files in the tree it read.
      return s.filter(p -> p.getParent().getFileName().toString().equals("cur"))
          .filter(Files::isRegularFile)
          .sorted()
          .toList();
    }
  }

  /**
   * {@code a/b.c} becomes {@code .a.b_c}: Maildir++ separates levels with dots. A top-level {@code
   * inbox} is the mailbox's own INBOX (its root), and its subfolders are {@code .INBOX.sub}, as
   * Dovecot names them; otherwise Dovecot would see two INBOXes.
   */
  private static String maildirPlusName(Path folder) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < folder.getNameCount(); i++) {
      String segment = folder.getName(i).toString();
      if (i == 0 && segment.equalsIgnoreCase("inbox")) {
        segment = "INBOX";
      }
      sb.append('.').append(segment.replace('.', '_'));
    }
    return sb.toString();
  }

  private static void maildir(Path dir) throws IOException {
    for (String sub : new String[] {"cur", "new", "tmp"}) {
      Files.createDirectories(dir.resolve(sub));
    }
  }
}
