package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The formats of the wire, against the examples of their RFCs and what servers send. */
class WireFormatsTest {

  @Test
  void responsesAreParsedWithLiteralsListsAndCodes() throws IOException {
    ResponseReader reader =
        reader(
            "* OK [UIDVALIDITY 3857529045] UIDs valid\r\n"
                + "* LIST (\\HasNoChildren \\Sent) \"/\" {4}\r\nSent\r\n"
                + "* 12 FETCH (UID 7 FLAGS (\\Seen $Work) RFC822.SIZE 42"
                + " BODY[HEADER.FIELDS (MESSAGE-ID)] {21}\r\nMessage-ID: <a@b>\r\n\r\n)\r\n"
                + "* NAMESPACE ((\"INBOX/\" \"/\")) NIL NIL\r\n"
                + "+ go ahead\r\n"
                + "M1 OK [APPENDUID 38505 3955:3957] done\r\n");
    Response ok = reader.read();
    assertThat(ok.status()).isEqualTo("OK");
    assertThat(ok.codeName()).isEqualTo("UIDVALIDITY");
    assertThat(ok.codeArguments()).isEqualTo("3857529045");
    Response list = reader.read();
    assertThat(list.is("LIST")).isTrue();
    assertThat(list.data().get(1)).isEqualTo(List.of("\\HasNoChildren", "\\Sent"));
    assertThat(new String((byte[]) list.data().get(3), StandardCharsets.US_ASCII))
        .isEqualTo("Sent");
    Response fetch = reader.read();
    assertThat(fetch.is("FETCH")).isTrue();
    ServerMessage m = ServerMessage.of(fetch);
    assertThat(m.uid()).isEqualTo(7);
    assertThat(m.size()).isEqualTo(42);
    assertThat(m.flags()).containsExactly("\\Seen", "$Work");
    assertThat(m.messageId()).isEqualTo("<a@b>");
    Response namespace = reader.read();
    assertThat(namespace.data().get(1)).isEqualTo(List.of(List.of("INBOX/", "/")));
    assertThat(namespace.data().get(2)).isNull();
    assertThat(reader.read().isContinuation()).isTrue();
    Response tagged = reader.read();
    assertThat(tagged.tag()).isEqualTo("M1");
    assertThat(UidSet.parse(tagged.codeArguments().split(" ")[1]))
        .containsExactly(3955L, 3956L, 3957L);
    assertThatThrownBy(reader::read).isInstanceOf(EOFException.class);
  }

  @Test
  void aTruncatedLiteralIsAnErrorNotAShortMessage() {
    ResponseReader reader = reader("* 1 FETCH (BODY[] {100}\r\nonly a few bytes");
    assertThatThrownBy(reader::read).isInstanceOf(EOFException.class);
  }

  @Test
  void uidSetsRoundTrip() {
    assertThat(UidSet.format(List.of(5L, 1L, 2L, 3L, 9L))).isEqualTo("1:3,5,9");
    assertThat(UidSet.parse("1:3,5,9")).containsExactly(1L, 2L, 3L, 5L, 9L);
  }

  @Test
  void bareLineFeedsGoAsCrlfAndComeBackAsTheyWere() {
    byte[] lf = "From: a\nSubject: b\n\nbody-ish\n".getBytes(StandardCharsets.US_ASCII);
    LineEndings.Converted sent = LineEndings.convert(lf);
    assertThat(sent.endings()).isEqualTo(LineEndings.LF);
    assertThat(new String(sent.crlf(), StandardCharsets.US_ASCII))
        .isEqualTo("From: a\r\nSubject: b\r\n\r\nbody-ish\r\n");
    assertThat(LineEndings.LF.restore(sent.crlf(), sent.bareLines())).isEqualTo(lf);
    byte[] mixed = "H: a\r\nH: b\r\n\r\nbody\nmore\r\nend\n".getBytes(StandardCharsets.US_ASCII);
    LineEndings.Converted both = LineEndings.convert(mixed);
    assertThat(both.endings()).isEqualTo(LineEndings.MIXED);
    assertThat(LineEndings.MIXED.restore(both.crlf(), both.bareLines())).isEqualTo(mixed);
    byte[] crlf = "a\r\nb\r\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(LineEndings.convert(crlf).endings()).isEqualTo(LineEndings.CRLF);
    assertThat(LineEndings.convert(crlf).crlf()).isSameAs(crlf);
  }

  @Test
  void lineEndingsAtTheEdgesOfAMessage() {
    for (String text : List.of("", "\n", "\r\n", "\nx", "x", "\r", "\n\n\r\n", "a\r\n\nb\r")) {
      byte[] source = text.getBytes(StandardCharsets.US_ASCII);
      LineEndings.Converted sent = LineEndings.convert(source);
      assertThat(sent.crlf()).isEqualTo(asImapCarriesIt(source));
      assertThat(sent.endings().restore(sent.crlf(), sent.bareLines()))
          .as("%s", text.replace("\n", "\\n"))
          .isEqualTo(source);
    }
  }

  @Test
  void manyBareLinesAmongCrlfOnesComeBackAsTheyWere() {
    Random random = new Random(7);
    for (int m = 0; m < 200; m++) {
      StringBuilder text = new StringBuilder();
      for (int line = random.nextInt(200); line > 0; line--) {
        text.append("x".repeat(random.nextInt(5))).append(random.nextBoolean() ? "\n" : "\r\n");
      }
      byte[] source = text.toString().getBytes(StandardCharsets.US_ASCII);
      LineEndings.Converted sent = LineEndings.convert(source);
      assertThat(sent.endings().restore(sent.crlf(), sent.bareLines())).isEqualTo(source);
    }
  }

  @Test
  void anyByteAtAnyPlaceOfAWordIsConvertedAsByteByByte() {
    // the scan reads eight bytes at a time: line endings at every offset of a word and in the last
    // bytes, next to bytes that differ from CR or LF only in the high bit or by a carry
    byte[] alphabet = {'\n', '\r', (byte) 0x8A, (byte) 0x8D, 0x0B, 0x0E, 0x00, (byte) 0xFF, 'x'};
    Random random = new Random(43);
    for (int m = 0; m < 5_000; m++) {
      byte[] source = new byte[random.nextInt(41)];
      for (int i = 0; i < source.length; i++) {
        source[i] = alphabet[random.nextInt(alphabet.length)];
      }
      byte[] expected = asImapCarriesIt(source);
      String text = new String(source, StandardCharsets.ISO_8859_1);
      int bareCr =
          text.replace("\r\n", "").length() - text.replace("\r\n", "").replace("\r", "").length();
      int endings = countOf(text.replace("\r\n", "\n"), '\n') + bareCr;
      int bare = expected.length - source.length;
      LineEndings.Converted sent = LineEndings.convert(source);
      assertThat(sent.crlf()).as("%s", Arrays.toString(source)).isEqualTo(expected);
      assertThat(sent.endings())
          .as("%s", Arrays.toString(source))
          .isEqualTo(
              bare == 0
                  ? LineEndings.CRLF
                  : bareCr > 0
                      ? LineEndings.CR
                      : bare == endings ? LineEndings.LF : LineEndings.MIXED);
      assertThat(sent.endings().restore(sent.crlf(), sent.bareLines()))
          .as("%s", Arrays.toString(source))
          .isEqualTo(source);
    }
  }

  @Test
  void aMessageConvertedAndRestoredAsItStreamsIsAsOneConvertedWhole() throws IOException {
    // decision 0071: a message too large to hold is converted in runs and restored in pieces; a CR
    // at the end of a run or a piece may be half of a CRLF
    byte[] alphabet = {'\n', '\r', 'x'};
    Random random = new Random(11);
    for (int m = 0; m < 3_000; m++) {
      byte[] source = new byte[random.nextInt(200)];
      for (int i = 0; i < source.length; i++) {
        source[i] = alphabet[random.nextInt(alphabet.length)];
      }
      LineEndings.Converted whole = LineEndings.convert(source);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      LineEndings.Converting streamed = new LineEndings.Converting(out, 2 + random.nextInt(16));
      for (int i = 0; i < source.length; ) {
        int n = Math.min(source.length - i, 1 + random.nextInt(20));
        streamed.write(source, i, n);
        i += n;
      }
      LineEndings.Kept kept = streamed.finish();
      String what = Arrays.toString(source);
      assertThat(out.toByteArray()).as(what).isEqualTo(whole.crlf());
      assertThat(streamed.written()).isEqualTo(whole.crlf().length);
      assertThat(kept.endings()).as(what).isEqualTo(whole.endings());
      assertThat(kept.bareLines()).as(what).isEqualTo(whole.bareLines());
      InputStream trickle =
          new ByteArrayInputStream(whole.crlf()) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
              return super.read(b, off, Math.min(len, 1 + random.nextInt(7)));
            }
          };
      assertThat(kept.endings().restoring(trickle, kept.bareLines()).readAllBytes())
          .as(what)
          .isEqualTo(source);
    }
  }

  @Test
  void nulBytesGoAs0x80AndComeBackWhereTheyWere() throws IOException {
    // decision 0072: at any offset of a word, next to 0x80 bytes of the message's own, whole or as
    // it streams in pieces
    byte[] alphabet = {0, (byte) 0x80, 'x', 0x01, (byte) 0xFF};
    Random random = new Random(5);
    for (int m = 0; m < 3_000; m++) {
      byte[] source = new byte[random.nextInt(300)];
      for (int i = 0; i < source.length; i++) {
        source[i] = alphabet[random.nextInt(alphabet.length)];
      }
      String what = Arrays.toString(source);
      NulBytes.Replaced sent = NulBytes.replace(source);
      assertThat(sent.bytes()).as(what).doesNotContain((byte) 0).hasSize(source.length);
      assertThat(sent.places() == null).isEqualTo(NulBytes.next(source, 0, source.length) < 0);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      NulBytes.Replacing streamed = new NulBytes.Replacing(out);
      for (int i = 0; i < source.length; ) {
        int n = Math.min(source.length - i, 1 + random.nextInt(20));
        streamed.write(source, i, n);
        i += n;
      }
      assertThat(out.toByteArray()).as(what).isEqualTo(sent.bytes());
      assertThat(streamed.places()).as(what).isEqualTo(sent.places());
      assertThat(NulBytes.restore(sent.bytes().clone(), sent.places())).as(what).isEqualTo(source);
      InputStream trickle =
          new ByteArrayInputStream(sent.bytes()) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
              return super.read(b, off, Math.min(len, 1 + random.nextInt(7)));
            }
          };
      assertThat(NulBytes.restoring(trickle, sent.places()).readAllBytes())
          .as(what)
          .isEqualTo(source);
    }
  }

  @Test
  void bareCarriageReturnsGoAsCrlfAndComeBackAsTheyWere() {
    byte[] source =
        "Subject: a\rFrom: b\r\rbody\r\r\nmore\nend\r".getBytes(StandardCharsets.US_ASCII);
    LineEndings.Converted sent = LineEndings.convert(source);
    assertThat(sent.endings()).isEqualTo(LineEndings.CR);
    assertThat(new String(sent.crlf(), StandardCharsets.US_ASCII))
        .isEqualTo("Subject: a\r\nFrom: b\r\n\r\nbody\r\n\r\nmore\r\nend\r\n");
    assertThat(LineEndings.CR.restore(sent.crlf(), sent.bareLines())).isEqualTo(source);
  }

  /** Every line ending CRLF: a CR before each bare LF, an LF after each bare CR. */
  private static byte[] asImapCarriesIt(byte[] source) {
    ByteArrayOutputStream crlf = new ByteArrayOutputStream();
    for (int i = 0; i < source.length; i++) {
      if (source[i] == '\n' && (i == 0 || source[i - 1] != '\r')) {
        crlf.write('\r');
      }
      crlf.write(source[i]);
      if (source[i] == '\r' && (i + 1 == source.length || source[i + 1] != '\n')) {
        crlf.write('\n');
      }
    }
    return crlf.toByteArray();
  }

  private static int countOf(String text, char c) {
    return (int) text.chars().filter(x -> x == c).count();
  }

  @Test
  void flagsRightsAndKeywordsMapBothWays() {
    assertThat(MessageFlags.toImap("uf")).containsExactly("\\Flagged");
    assertThat(MessageFlags.toImap("rwd"))
        .containsExactly("\\Seen", "\\Answered", "\\Draft", "$Forwarded");
    assertThat(MessageFlags.fromImap(MessageFlags.toImap("ufrwdxn")))
        .isEqualTo(org.mailrestore.mail.Flags.normalize("ufrwdxn"));
    assertThat(AclRights.toImap("rwi")).isEqualTo("lrswik");
    assertThat(AclRights.fromImap("lrswik")).isEqualTo("rwi");
    assertThat(AclRights.fromImap(AclRights.toImap("rwida"))).isEqualTo("rwida");
  }

  @Test
  void messageIdIsFoundInFoldedHeadersOnly() {
    byte[] m =
        "Subject: x\r\nMessage-ID:\r\n <ABC@example.org>\r\n\r\nMessage-ID: <body@x>\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    assertThat(Appending.messageId(m)).isEqualTo("<abc@example.org>");
    assertThat(
            Appending.messageId(
                ("X-Note: message-id: <not@this>\r\nMESSAGE-ID:\t<Two.Lines@\r\n\t Example.ORG>"
                        + "\r\nSubject: y\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("<two.lines@example.org>");
    assertThat(
            Appending.messageId(
                "Message-ID:  \r\nSubject: z\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
        .as("an empty value is none")
        .isNull();
    assertThat(
            Appending.messageId(
                "Subject: x\r\n\r\nMessage-ID: <b>\r\n".getBytes(StandardCharsets.US_ASCII)))
        .isNull();
  }

  private static ResponseReader reader(String text) {
    return new ResponseReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }
}
