package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.mailrestore.mail.Keywords;
import org.mailrestore.mail.TextRules;

/**
 * The keywords of an exported Maildir tree as Dovecot keeps them: per Maildir directory a table of
 * at most 26 keywords ({@code dovecot-keywords}, {@code 0 Work} is the letter {@code a}), and each
 * message's letters in its file name. A message that came from a Maildir keeps the letters it had
 * where the table allows, so that a tree restored and exported comes back under the same names.
 */
final class KeywordTables {

  private static final int LETTERS = 26;

  /** A keyword a message carries: what it stands for (a tag, a flag) and how it is written. */
  record Wanted(String meaning, String tagName) {

    static Wanted tag(String tagName) {
      return new Wanted("tag:" + tagName.toLowerCase(Locale.ROOT), tagName);
    }

    static Wanted flag(String keyword) {
      return new Wanted(keyword.toLowerCase(Locale.ROOT), null);
    }

    /** What a keyword read from a Maildir stood for, or null when it was not restored. */
    static String meaningOf(String keyword) {
      if (Keywords.isFlag(keyword)) {
        return keyword.toLowerCase(Locale.ROOT);
      }
      String tag = TextRules.tagName(keyword);
      return tag == null ? null : "tag:" + tag.toLowerCase(Locale.ROOT);
    }
  }

  /** One directory's table; a reserved letter is one a message kept that no keyword names. */
  private static final class Table {
    final String[] keywords = new String[LETTERS];
    final String[] meanings = new String[LETTERS];
    final boolean[] reserved = new boolean[LETTERS];

    int indexOf(String meaning) {
      for (int i = 0; i < LETTERS; i++) {
        if (meaning.equals(meanings[i])) {
          return i;
        }
      }
      return -1;
    }

    boolean free(int i) {
      return meanings[i] == null && !reserved[i];
    }

    /** Gives the keyword the first free letter, or returns -1 when all 26 are taken. */
    int add(Wanted wanted) {
      for (int i = 0; i < LETTERS; i++) {
        if (free(i)) {
          String keyword =
              wanted.tagName() == null ? flagKeyword(wanted.meaning()) : tagKeyword(wanted);
          keywords[i] = keyword;
          meanings[i] = wanted.meaning();
          return i;
        }
      }
      return -1;
    }

    private String tagKeyword(Wanted wanted) {
      Set<String> taken = new HashSet<>();
      for (String k : keywords) {
        if (k != null) {
          taken.add(k.toLowerCase(Locale.ROOT));
        }
      }
      return Keywords.of(wanted.tagName(), taken);
    }

    private static String flagKeyword(String meaning) {
      return meaning.equalsIgnoreCase(Keywords.FORWARDED) ? Keywords.FORWARDED : Keywords.MDN_SENT;
    }
  }

  private final Map<String, Table> tables = new LinkedHashMap<>();
  private final Set<String> reported = new HashSet<>();

  /**
   * The keyword letters of a message in the Maildir {@code relDir} (relative to the export's root,
   * "" for the inbox), in order: first those of its kept name that still stand for what it carries
   * (and letters its table did not name, kept as they were), then a letter for each keyword still
   * without one.
   *
   * @param keptLetters the keyword letters of the name the message had ("" for a new name)
   * @param named the letters' keywords as they were read ({@link MaildirNames#KEYWORDS_ATTR})
   * @param problem told when a folder has more keywords than letters
   */
  String letters(
      String relDir,
      String keptLetters,
      Map<Character, String> named,
      List<Wanted> wanted,
      Consumer<String> problem) {
    Table table = tables.computeIfAbsent(relDir, d -> new Table());
    boolean[] has = new boolean[LETTERS];
    Set<String> wantedMeanings = new HashSet<>();
    wanted.forEach(w -> wantedMeanings.add(w.meaning()));
    for (int k = 0; k < keptLetters.length(); k++) {
      char letter = keptLetters.charAt(k);
      int i = letter - 'a';
      String keyword = named.get(letter);
      if (keyword == null) {
        if (table.free(i)) {
          table.reserved[i] = true;
        }
        has[i] = table.reserved[i];
        continue;
      }
      // A junk filter's verdict was restored as no tag: its letter goes back as it was.
      boolean verdict = Keywords.isJunkVerdict(keyword);
      String meaning =
          verdict ? "kept:" + keyword.toLowerCase(Locale.ROOT) : Wanted.meaningOf(keyword);
      if (meaning == null || !(verdict || wantedMeanings.contains(meaning))) {
        continue;
      }
      if (table.free(i) && table.indexOf(meaning) < 0) {
        table.keywords[i] = keyword;
        table.meanings[i] = meaning;
      }
      has[i] |= meaning.equals(table.meanings[i]);
    }
    for (Wanted w : wanted) {
      int i = table.indexOf(w.meaning());
      if (i < 0) {
        i = table.add(w);
      }
      if (i < 0) {
        if (reported.add(relDir + "\n" + w.meaning())) {
          problem.accept(
              (relDir.isEmpty() ? "the inbox" : relDir)
                  + " has more keywords than the 26 a Maildir folder can name: "
                  + (w.tagName() == null ? w.meaning() : "the tag " + w.tagName())
                  + " is left out of its messages' file names");
        }
        continue;
      }
      has[i] = true;
    }
    StringBuilder letters = new StringBuilder();
    for (int i = 0; i < LETTERS; i++) {
      if (has[i]) {
        letters.append((char) ('a' + i));
      }
    }
    return letters.toString();
  }

  /** Writes each table that names a keyword as its directory's {@code dovecot-keywords}. */
  void write(Path root) throws IOException {
    for (Map.Entry<String, Table> e : tables.entrySet()) {
      StringBuilder lines = new StringBuilder();
      String[] keywords = e.getValue().keywords;
      for (int i = 0; i < LETTERS; i++) {
        if (keywords[i] != null) {
          lines.append(i).append(' ').append(keywords[i]).append('\n');
        }
      }
      if (!lines.isEmpty()) {
        Path dir = Files.createDirectories(root.resolve(e.getKey()));
        Files.write(
            dir.resolve(MaildirNames.DOVECOT_KEYWORDS),
            lines.toString().getBytes(StandardCharsets.UTF_8),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
      }
    }
  }
}
