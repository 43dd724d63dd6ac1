package org.mailrestore.mbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;

/** Every dialect, both line endings, the odd separators: each message comes back as it went in. */
class MboxReaderTest {

  static final String SEP = "From alice@example.org Thu Jan  1 00:00:00 2015";

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  static List<byte[]> read(byte[] mbox, MboxDialect dialect) throws IOException {
    List<byte[]> messages = new ArrayList<>();
    try (MboxReader reader = new MboxReader(new ByteArrayInputStream(mbox), dialect);
        MessageBuffer buffer = new MessageBuffer()) {
      while (reader.next(buffer) != null) {
        try (InputStream in = buffer.open()) {
          byte[] m = in.readAllBytes();
          assertThat(buffer.size()).isEqualTo(m.length);
          assertThat(buffer.digest()).isEqualTo(BlobDigest.ofContent(m));
          messages.add(m);
        }
      }
    }
    return messages;
  }

  /** Messages that test quoting: From lines, quoted From lines, no final line ending. */
  static List<byte[]> tricky(String eol) {
    return List.of(
        bytes("Subject: plain" + eol + eol + "body" + eol),
        bytes(
            "Subject: from lines"
                + eol
                + eol
                + "From here on"
                + eol
                + ">From there"
                + eol
                + ">>From far"
                + eol
                + "end"
                + eol),
        bytes("Subject: no final line ending" + eol + eol + "last line"),
        bytes("Subject: ends with a blank line" + eol + eol + "x" + eol + eol),
        bytes("Subject: empty body" + eol + eol));
  }

  @Test
  void mboxrdGivesEveryMessageBackByteForByteWithBothLineEndings() throws IOException {
    for (String eol : List.of("\n", "\r\n")) {
      List<byte[]> messages = tricky(eol);
      byte[] mbox =
          MboxWriter.concat(
              messages.stream().map(m -> MboxWriter.mboxrd(m, SEP)).toArray(byte[][]::new));
      assertThat(read(mbox, MboxDialect.MBOXRD)).containsExactlyElementsOf(messages);
    }
  }

  @Test
  void mboxclAndMboxcl2DelimitByContentLengthAndDropTheirHeader() throws IOException {
    for (String eol : List.of("\n", "\r\n")) {
      List<byte[]> messages = tricky(eol);
      byte[] cl2 =
          MboxWriter.concat(
              messages.stream().map(m -> MboxWriter.mboxcl2(m, SEP)).toArray(byte[][]::new));
      assertThat(read(cl2, MboxDialect.MBOXCL2)).containsExactlyElementsOf(messages);
      // mboxcl quotes as mboxo does: an original ">From " line cannot be told apart
      List<byte[]> unambiguous = List.of(messages.get(0), messages.get(2), messages.get(3));
      byte[] cl =
          MboxWriter.concat(
              unambiguous.stream().map(m -> MboxWriter.mboxcl(m, SEP)).toArray(byte[][]::new));
      assertThat(read(cl, MboxDialect.MBOXCL)).containsExactlyElementsOf(unambiguous);
    }
  }

  @Test
  void mboxoUndoesOneQuoteAndLosesWhatItCannotTell() throws IOException {
    byte[] original = bytes("Subject: x\n\nFrom a\nok\n");
    assertThat(read(MboxWriter.mboxo(original, SEP), MboxDialect.MBOXO)).containsExactly(original);
    // an original ">From " line: mboxo wrote it as is, and reads it back as "From " (documented)
    byte[] ambiguous = bytes("Subject: x\n\n>From a\n");
    assertThat(read(MboxWriter.mboxo(ambiguous, SEP), MboxDialect.MBOXO))
        .containsExactly(bytes("Subject: x\n\nFrom a\n"));
  }

  @Test
  void onlyLinesInSeparatorFormSeparateMessages() throws IOException {
    byte[] mbox =
        bytes(
            SEP
                + "\nSubject: a\n\ntext\n\nFrom Russia with love\n\n"
                + SEP
                + "\nSubject: b\n\nb\n");
    // an unquoted "From " line is text, even after a blank line: it has no separator's form
    List<byte[]> messages = read(mbox, MboxDialect.MBOXRD);
    assertThat(messages).hasSize(2);
    assertThat(new String(messages.get(0), StandardCharsets.ISO_8859_1))
        .isEqualTo("Subject: a\n\ntext\n\nFrom Russia with love\n");
    // a message without a final line ending is followed by a separator-shaped line
    byte[] noBlank = bytes(SEP + "\nSubject: a\n\nno ending\n" + SEP + "\nSubject: b\n\nb\n");
    assertThat(read(noBlank, MboxDialect.MBOXRD))
        .containsExactly(bytes("Subject: a\n\nno ending"), bytes("Subject: b\n\nb"));
  }

  /**
   * Some exporters write an RFC 5322 or ISO 8601 date where asctime's belongs: a file whose first
   * separator has such a date is separated by lines of that form, and only that form.
   */
  @Test
  void separatorsWithTheFirstSeparatorsOtherDateFormAreRead() throws IOException {
    for (String first :
        List.of(
            "From alice@example.org Mon, 13 Feb 2006 10:00:00 +0100",
            "From alice@example.org 13 Feb 2006 10:00:00 GMT",
            "From alice@example.org 2006-02-13T10:00:00Z",
            "From alice@example.org 2006-02-13 10:00:00")) {
      String second = first.replace("13", "14");
      byte[] mbox =
          bytes(
              first
                  + "\nSubject: a\n\nFrom Russia with love\n\n"
                  + second
                  + "\nSubject: b\n\nFrom bob 2006-02-14 and Tue, 14 Feb 2006 10:00 too\n\n");
      assertThat(read(mbox, MboxDialect.MBOXRD))
          .as(first)
          .containsExactly(
              bytes("Subject: a\n\nFrom Russia with love\n"),
              bytes("Subject: b\n\nFrom bob 2006-02-14 and Tue, 14 Feb 2006 10:00 too\n"));
    }
    // In a file of asctime separators, a line of another date form is text.
    byte[] asctime =
        bytes(
            SEP
                + "\nSubject: a\n\nFrom bob Mon, 13 Feb 2006 10:00:00 +0100\n\n"
                + SEP
                + "\nSubject: b\n\nb\n");
    assertThat(read(asctime, MboxDialect.MBOXRD)).hasSize(2);
    assertThat(MboxItems.separatorDate("From a@b Mon, 13 Feb 2006 10:00:00 +0100"))
        .isEqualTo(1_139_821_200_000L);
    assertThat(MboxItems.separatorDate("From a@b 2006-02-13T09:00:00Z"))
        .isEqualTo(1_139_821_200_000L);
    assertThat(MboxItems.separatorDate("From a@b 2006-02-13 10:00:00+0100"))
        .isEqualTo(1_139_821_200_000L);
  }

  @Test
  void netscapeSeparatorsWithoutADateAndAByteOrderMarkAreRead() throws IOException {
    byte[] mbox =
        bytes(
            "\u00ef\u00bb\u00bfFrom - \nSubject: a\n\nno blank line after\nFrom - \nSubject: b\n\nb\n");
    assertThat(read(mbox, MboxDialect.MBOXRD))
        .containsExactly(bytes("Subject: a\n\nno blank line after"), bytes("Subject: b\n\nb"));
  }

  /**
   * An envelope sender whose local part is quoted with a space in it, and an empty one (two spaces
   * after {@code From}), as qmail and procmail write them; a dated line without a sender's place
   * stays text.
   */
  @Test
  void separatorsWithAQuotedOrAnEmptySenderAreRead() throws IOException {
    byte[] mbox =
        bytes(
            SEP
                + "\nSubject: a\n\nFrom Jan 3 10:00 to Jan 5, away\n\n"
                + "From \"john smith\"@example.com Sat Jan  3 01:05:34 1996\nSubject: b\n\nb\n\n"
                + "From  Sat Jan  3 01:05:34 1996\nSubject: c\n\nc\n");
    assertThat(read(mbox, MboxDialect.MBOXRD))
        .containsExactly(
            bytes("Subject: a\n\nFrom Jan 3 10:00 to Jan 5, away\n"),
            bytes("Subject: b\n\nb\n"),
            bytes("Subject: c\n\nc"));
  }

  /**
   * Some exporters write each message's sender alone, without a date: every separator has another
   * word. In such a file any address alone separates; a line with other words is still text.
   */
  @Test
  void separatorsOfAnAddressAloneAreReadWhateverTheAddress() throws IOException {
    byte[] mbox =
        bytes(
            "From alice@example.com\nSubject: a\n\nFrom here on, text\n\n"
                + "From bob.smith@mail.example.org\nSubject: b\n\nb\n\n"
                + "From <carol+list@example.net>\r\nSubject: c\r\n\r\nFrom dave@example.net with"
                + " love\r\n\r\n");
    assertThat(read(mbox, MboxDialect.MBOXRD))
        .containsExactly(
            bytes("Subject: a\n\nFrom here on, text\n"),
            bytes("Subject: b\n\nb\n"),
            bytes("Subject: c\r\n\r\nFrom dave@example.net with love\r\n"));
    // In a file of asctime separators, an address alone is text.
    byte[] asctime =
        bytes(SEP + "\nSubject: a\n\nFrom alice@example.com\n\n" + SEP + "\nSubject: b\n\nb\n");
    assertThat(read(asctime, MboxDialect.MBOXRD)).hasSize(2);
  }

  @Test
  void aMessagesOwnContentLengthHeaderStaysOnlyTheWritersIsRemoved() throws IOException {
    byte[] own = bytes("Content-Length: 999\nSubject: own header\n\nbody\n");
    byte[] mbox = MboxWriter.concat(MboxWriter.mboxcl2(own, SEP), MboxWriter.mboxcl2(own, SEP));
    assertThat(read(mbox, MboxDialect.MBOXCL2)).containsExactly(own, own);
  }

  @Test
  void aLyingContentLengthFallsBackToSeparators() throws IOException {
    byte[] mbox =
        bytes(
            SEP
                + "\nSubject: a\nContent-Length: 3\n\nlonger than three\n\n"
                + SEP
                + "\nSubject: b\n\nb\n\n");
    assertThat(read(mbox, MboxDialect.MBOXCL2))
        .containsExactly(bytes("Subject: a\n\nlonger than three\n"), bytes("Subject: b\n\nb\n"));
  }

  @Test
  void longLinesAndLargeMessagesStreamInBoundedMemory() throws IOException {
    byte[] body = new byte[9 << 20];
    new Random(3).nextBytes(body);
    for (int i = 0; i < body.length; i++) {
      if (body[i] == '\n' || body[i] == '\r') {
        body[i] = 'x'; // one line of 9 MiB, over the in-memory limit
      }
    }
    byte[] message = MboxWriter.concat(bytes("Subject: big\n\n"), body, bytes("\n"));
    byte[] small = bytes("Subject: small\n\nFrom inside\n");
    byte[] mbox = MboxWriter.concat(MboxWriter.mboxrd(message, SEP), MboxWriter.mboxrd(small, SEP));
    List<byte[]> read = read(mbox, MboxDialect.MBOXRD);
    assertThat(read).hasSize(2);
    assertThat(Arrays.equals(read.get(0), message)).isTrue();
    assertThat(read.get(1)).isEqualTo(small);
  }

  @Test
  void aFileThatIsNotAnMboxSaysSo() {
    assertThatThrownBy(() -> read(bytes("Subject: x\n\nbody\n"), MboxDialect.MBOXRD))
        .isInstanceOf(MboxReader.NotMboxException.class)
        .hasMessageContaining("From ");
  }

  @Test
  void textBeforeTheFirstSeparatorIsPassedOverAndSaidWhereOnlyAFullSeparatorEndsIt()
      throws IOException {
    String banner = "Exported by MailTool 2.1\nFrom - \nFrom here on, all mail\n";
    byte[] mbox =
        bytes("\n" + banner + SEP + "\nSubject: a\n\na\n\n" + SEP + "\nSubject: b\n\nb\n");
    try (MboxReader reader = new MboxReader(new ByteArrayInputStream(mbox), MboxDialect.MBOXRD);
        MessageBuffer buffer = new MessageBuffer()) {
      MboxReader.Start first = reader.next(buffer);
      assertThat(first).isNotNull();
      assertThat(first.offset()).isEqualTo(1 + banner.length());
      assertThat(reader.takeLeading()).isEqualTo(new MboxReader.Leading(1, banner.length()));
      assertThat(reader.takeLeading()).as("told once").isNull();
      try (InputStream in = buffer.open()) {
        assertThat(in.readAllBytes()).isEqualTo(bytes("Subject: a\n\na\n"));
      }
      assertThat(reader.next(buffer)).isNotNull();
      assertThat(reader.takeLeading()).isNull();
      assertThat(reader.next(buffer)).isNull();
    }
    byte[] far =
        MboxWriter.concat(
            bytes(("x".repeat(99) + "\n").repeat(SeparatorLine.MAX_LEADING / 100 + 1)),
            bytes(SEP + "\nSubject: a\n\na\n"));
    assertThatThrownBy(() -> read(far, MboxDialect.MBOXRD))
        .as("a separator beyond the file's first 64 KiB: not an mbox")
        .isInstanceOf(MboxReader.NotMboxException.class)
        .hasMessageContaining("64 KiB");
  }

  @Test
  void aFirstLineTooLongForASeparatorIsNotTakenForOneWithTheWholeFile() {
    byte[] oneLine = bytes(SEP + "\r" + "Subject: a\r\rbody\r".repeat(500));
    assertThatThrownBy(() -> read(oneLine, MboxDialect.MBOXRD))
        .isInstanceOf(MboxReader.NotMboxException.class)
        .hasMessageContaining("first line is longer than a separator line");
  }

  @Test
  void separatorDatesAreReadInTheirUsualForms() {
    assertThat(MboxItems.separatorDate(SEP)).isEqualTo(1_420_070_400_000L);
    assertThat(MboxItems.separatorDate("From - Thu Jan 01 00:00:00 2015"))
        .isEqualTo(1_420_070_400_000L);
    assertThat(MboxItems.separatorDate("From 1@xxx Thu Jan 01 01:00:00 +0100 2015"))
        .isEqualTo(1_420_070_400_000L);
    assertThat(MboxItems.separatorDate("From nobody")).isNull();
  }
}
