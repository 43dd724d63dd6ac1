package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Keywords;
import org.mailrestore.maildir.KeywordTables.Wanted;

class KeywordTablesTest {

  @TempDir Path dir;

  private final KeywordTables tables = new KeywordTables();
  private final List<String> problems = new ArrayList<>();

  private String letters(String maildir, String kept, Map<Character, String> named, Wanted... w) {
    return tables.letters(maildir, kept, named, List.of(w), problems::add);
  }

  @Test
  void keptLettersStayAndNewKeywordsTakeTheFreeOnes() throws IOException {
    // As read from a folder whose table was "1 $MDNSent\n2 Lists/Linux": the tag is Lists-Linux.
    Map<Character, String> named = Map.of('b', "$MDNSent", 'c', "Lists/Linux");
    assertThat(
            letters(
                ".Work", "bcz", named, Wanted.flag(Keywords.MDN_SENT), Wanted.tag("Lists-Linux")))
        .as("a letter the table did not name is kept as it was")
        .isEqualTo("bcz");
    assertThat(letters(".Work", "", Map.of(), Wanted.tag("lists-linux"), Wanted.tag("Très bien")))
        .as("a tag has one letter per folder; a new one takes the first free letter")
        .isEqualTo("ac");
    assertThat(letters("", "", Map.of(), Wanted.tag("Work"), Wanted.flag(Keywords.FORWARDED)))
        .as("each folder has its own table")
        .isEqualTo("ab");
    assertThat(letters(".Work", "b", Map.of('b', "$MDNSent")))
        .as("a keyword the message no longer carries is dropped")
        .isEmpty();
    assertThat(letters(".Work", "d", Map.of('d', "$NotJunk")))
        .as("a junk filter's verdict, restored as no tag, goes back as it was")
        .isEqualTo("d");
    tables.write(dir);
    assertThat(Files.readString(dir.resolve(".Work/dovecot-keywords")))
        .isEqualTo("0 Tr_s_bien\n1 $MDNSent\n2 Lists/Linux\n3 $NotJunk\n");
    assertThat(Files.readString(dir.resolve("dovecot-keywords")))
        .isEqualTo("0 Work\n1 $Forwarded\n");
    assertThat(problems).isEmpty();
  }

  @Test
  void aFolderHoldsTwentySixKeywordsAndSaysSoOnceWhenMoreAreAsked() throws IOException {
    Wanted[] many = new Wanted[28];
    for (int i = 0; i < many.length; i++) {
      many[i] = Wanted.tag("tag" + i);
    }
    assertThat(letters(".Big", "", Map.of(), many)).isEqualTo("abcdefghijklmnopqrstuvwxyz");
    letters(".Big", "", Map.of(), many);
    assertThat(problems)
        .containsExactly(
            ".Big has more keywords than the 26 a Maildir folder can name: the tag tag26 is left"
                + " out of its messages' file names",
            ".Big has more keywords than the 26 a Maildir folder can name: the tag tag27 is left"
                + " out of its messages' file names");
    tables.write(dir);
    assertThat(Files.readAllLines(dir.resolve(".Big/dovecot-keywords")))
        .hasSize(26)
        .startsWith("0 tag0")
        .endsWith("25 tag25");
  }

  @Test
  void namesGetTheirLettersAfterTheFlags() {
    assertThat(MaildirNames.withKeywordLetters("1.M1P1.host:2,FSbz", "ac"))
        .isEqualTo("1.M1P1.host:2,FSac");
    assertThat(MaildirNames.withKeywordLetters("1.M1P1.host", "a")).isEqualTo("1.M1P1.host:2,a");
    assertThat(MaildirNames.withKeywordLetters("1.M1P1.host", "")).isEqualTo("1.M1P1.host");
    assertThat(MaildirNames.keywordLetters("1.M1P1.host,S=5:2,FSbz")).isEqualTo("bz");
  }
}
