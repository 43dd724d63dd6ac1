package org.mailrestore.maildir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.mailrestore.blob.PathFence;

/**
 * The keywords Courier-IMAP keeps for the messages of one Maildir folder, in its {@code
 * courierimapkeywords/} directory (Courier's {@code maildirkeywords.c}):
 *
 * <ul>
 *   <li>{@code :list}: the keyword names, one per line, an empty line, then one line per message
 *       with keywords, {@code <file name without its info>:<index> <index>...};
 *   <li>updates not yet merged into it, one file per message holding all its keywords, one name per
 *       line: {@code .<n>.<base name>} (the highest {@code n} is the newest) or {@code <base name>}
 *       (newer than any numbered one). An empty update clears the message's keywords.
 * </ul>
 *
 * Keywords are kept under the letter of their index for export (as a Dovecot table would name
 * them), the first 26 only; the others still become tags.
 */
final class CourierKeywords {

  static final String DIR = "courierimapkeywords";

  private static final String LIST = ":list";

  /** An update file holds one message's keywords: a few names. More is not Courier's. */
  private static final int MAX_UPDATE_BYTES = 64 * 1024;

  private final List<String> names = new ArrayList<>();
  private final Map<String, Integer> indexOf = new HashMap<>();
  private final Map<String, int[]> byBase = new HashMap<>();

  private CourierKeywords() {}

  /**
   * Reads the keywords of the folder whose {@code courierimapkeywords} directory is {@code dir}.
   * Lines and update files it cannot use are reported to {@code problems}, once each kind; the
   * messages they name restore without those keywords.
   *
   * @throws IOException when the directory or its list cannot be read at all
   */
  static CourierKeywords read(PathFence fence, Path dir, Consumer<String> problems)
      throws IOException {
    CourierKeywords keywords = new CourierKeywords();
    Path list = dir.resolve(LIST);
    if (fence.isRegularFile(list)) {
      keywords.readList(fence, list, problems);
    }
    keywords.readUpdates(fence, dir, problems);
    return keywords;
  }

  /** The keywords of the message in {@code fileName}, with their letters; empty when none. */
  List<MaildirNames.Keyword> of(String fileName) {
    int[] indexes = byBase.get(MaildirNames.baseName(fileName));
    if (indexes == null) {
      return List.of();
    }
    List<MaildirNames.Keyword> keywords = new ArrayList<>(indexes.length);
    for (int index : indexes) {
      char letter = index < 26 ? (char) ('a' + index) : 0;
      keywords.add(new MaildirNames.Keyword(letter, names.get(index)));
    }
    return keywords;
  }

  private void readList(PathFence fence, Path list, Consumer<String> problems) throws IOException {
    try (BufferedReader in = reader(fence.open(list))) {
      List<Integer> lineIndexes = new ArrayList<>();
      String line;
      while ((line = in.readLine()) != null && !line.isEmpty()) {
        lineIndexes.add(index(line));
      }
      int broken = 0;
      while ((line = in.readLine()) != null) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
          broken++;
          continue;
        }
        List<Integer> indexes = new ArrayList<>();
        for (String number : line.substring(colon + 1).trim().split(" +")) {
          if (number.isEmpty()) {
            continue;
          }
          try {
            int n = Integer.parseInt(number);
            if (n >= 0 && n < lineIndexes.size()) {
              addOnce(indexes, lineIndexes.get(n));
            }
          } catch (NumberFormatException e) {
            broken++;
          }
        }
        byBase.put(line.substring(0, colon), toArray(indexes));
      }
      if (broken > 0) {
        problems.accept(
            LIST
                + ": "
                + broken
                + " line(s) or numbers not in Courier's form <file>:<index>...; those messages"
                + " restore without them");
      }
    }
  }

  private void readUpdates(PathFence fence, Path dir, Consumer<String> problems)
      throws IOException {
    // For each message, its newest update: the highest number, or the unnumbered file.
    record Update(long order, Path file) {}
    Map<String, Update> newest = new HashMap<>();
    {
      for (Path entryName : fence.names(dir)) {
        Path entry = dir.resolve(entryName);
        String name = entryName.toString();
        if (name.startsWith(":") || !fence.isRegularFile(entry)) {
          continue;
        }
        long order = Long.MAX_VALUE;
        String base = name;
        if (name.startsWith(".")) {
          int dot = name.indexOf('.', 1);
          if (dot < 2 || !name.substring(1, dot).chars().allMatch(Character::isDigit)) {
            continue; // Courier's scratch files (.tmp.*)
          }
          order = Long.parseLong(name.substring(1, Math.min(dot, 19)));
          base = name.substring(dot + 1);
        }
        Update update = new Update(order, entry);
        newest.merge(base, update, (a, b) -> b.order() > a.order() ? b : a);
      }
    }
    int unreadable = 0;
    for (Map.Entry<String, Update> update : newest.entrySet()) {
      List<Integer> indexes = new ArrayList<>();
      try (InputStream raw = fence.open(update.getValue().file())) {
        byte[] bytes = raw.readNBytes(MAX_UPDATE_BYTES);
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\r?\n")) {
          if (line.isEmpty()) {
            break;
          }
          addOnce(indexes, index(line));
        }
      } catch (IOException e) {
        unreadable++;
        continue;
      }
      byBase.put(update.getKey(), toArray(indexes));
    }
    if (unreadable > 0) {
      problems.accept(
          unreadable
              + " keyword update file(s) cannot be read; those messages restore with the keywords"
              + " of "
              + LIST);
    }
  }

  /** The index of a keyword name, added when new. */
  private int index(String name) {
    return indexOf.computeIfAbsent(
        name,
        n -> {
          names.add(n);
          return names.size() - 1;
        });
  }

  private static BufferedReader reader(InputStream in) {
    // Keywords are IMAP atoms; anything else is read as UTF-8, its bad bytes replaced.
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }

  private static void addOnce(List<Integer> indexes, int index) {
    if (!indexes.contains(index)) {
      indexes.add(index);
    }
  }

  private static int[] toArray(List<Integer> indexes) {
    return indexes.stream().mapToInt(Integer::intValue).toArray();
  }
}
