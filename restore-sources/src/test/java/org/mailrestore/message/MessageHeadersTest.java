package org.mailrestore.message;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MessageHeadersTest {

  private static MessageHeaders parse(byte[] head) {
    return MessageHeaders.parse(head, head.length);
  }

  @Test
  void namesInAnyCaseFoldedValuesAndTheFirstOfRepeatedFields() {
    MessageHeaders h =
        parse(
            ("Received: from x\r\nSUBJECT : a long\r\n\tsubject line\r\nfrom: Ann <a@x>\r\n"
                    + "Subject: second\r\nDate: Mon, 14 May 2001 16:39:00 -0700 (PDT)\r\n\r\n"
                    + "From: not a header\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(h.subject()).isEqualTo("a long subject line");
    assertThat(h.sender()).isEqualTo("Ann <a@x>");
    assertThat(h.date()).isEqualTo(Instant.parse("2001-05-14T23:39:00Z").toEpochMilli());
  }

  @Test
  void anMboxSeparatorIsPassedOverAndBareLineFeedsEndLines() {
    MessageHeaders h =
        parse(
            "From a@x Mon Jan  1 00:00:00 2001\nFrom: b@x\nDate:  2 Jan 2001 10:00  +0000\n\nx"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(h.sender()).isEqualTo("b@x");
    assertThat(h.date()).isEqualTo(Instant.parse("2001-01-02T10:00:00Z").toEpochMilli());
  }

  @Test
  void valuesInUtf8Latin1OrEncodedWordsBecomeText() {
    byte[] latin1 = "Subject: caf\u00e9 cr\u00e8me\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(parse(latin1).subject()).isEqualTo("caf\u00e9 cr\u00e8me");
    byte[] utf8 =
        "Subject: \u00fcber\r\nFrom: =?UTF-8?Q?J=C3=B6rg?= <j@x>\r\n\r\n"
            .getBytes(StandardCharsets.UTF_8);
    assertThat(parse(utf8).subject()).isEqualTo("\u00fcber");
    assertThat(parse(utf8).sender()).isEqualTo("J\u00f6rg <j@x>");
    assertThat(parse("Date: yesterday\r\n: no name\r\n\r\n".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo(new MessageHeaders(null, null, null));
  }

  private static String word(String charset, byte[] bytes) {
    return "=?" + charset + "?B?" + java.util.Base64.getEncoder().encodeToString(bytes) + "?=";
  }

  @Test
  void adjacentWordsInOneCharsetAreDecodedTogetherAndBrokenOnesStayAsTheyAre() throws Exception {
    byte[] utf8 = "Grüße aus Köln".getBytes(StandardCharsets.UTF_8);
    // Split inside the two bytes of ü, as some writers split long subjects.
    String split =
        word("UTF-8", java.util.Arrays.copyOfRange(utf8, 0, 3))
            + "\r\n "
            + word("utf-8", java.util.Arrays.copyOfRange(utf8, 3, utf8.length));
    assertThat(MessageHeaders.decodeWords(split)).isEqualTo("Grüße aus Köln");
    assertThat(MessageHeaders.decodeWords("=?utf-8?q?Gr=C3?= =?utf-8?q?=BC=C3=9Fe?="))
        .isEqualTo("Grüße");
    // In two charsets, each word is its own text; words apart keep what is between them.
    assertThat(
            MessageHeaders.decodeWords(
                word("iso-8859-1", "café ".getBytes(StandardCharsets.ISO_8859_1))
                    + " "
                    + word("utf-8", "olé".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("café olé");
    assertThat(MessageHeaders.decodeWords("Re: =?utf-8?q?a?= and =?utf-8?q?b?= !"))
        .isEqualTo("Re: a and b !");
    // Not base64: the word as it is, not noise; no padding, or a stray one, is forgiven.
    assertThat(MessageHeaders.decodeWords("Re: =?UTF-8?B?broken!!base64?= x"))
        .isEqualTo("Re: =?UTF-8?B?broken!!base64?= x");
    assertThat(MessageHeaders.decodeWords("=?UTF-8?B?w7xiZXI?=")).isEqualTo("über");
    assertThat(MessageHeaders.decodeWords("=?UTF-8?B?w7xiZXI==?=")).isEqualTo("über");
    // A broken word between two good ones does not join them.
    assertThat(MessageHeaders.decodeWords("=?utf-8?q?a?= =?utf-8?b?!!?= =?utf-8?q?b?="))
        .isEqualTo("a=?utf-8?b?!!?=b");
  }

  @Test
  void encodedWordsInTheCharsetsMailReallyNames() throws Exception {
    java.util.Map<String, String> expected = new java.util.LinkedHashMap<>();
    expected.put(word("ks_c_5601-1987", "안녕하세요".getBytes("x-windows-949")), "안녕하세요");
    expected.put(word("utf-7", "Gr+APwA3w-e".getBytes(StandardCharsets.US_ASCII)), "Grüße");
    expected.put(
        word("unicode-1-1-utf-7", "1 +- 1 = 2 +AKM-".getBytes(StandardCharsets.US_ASCII)),
        "1 + 1 = 2 £");
    expected.put(word("iso-8859-8-i", "שלום".getBytes("ISO-8859-8")), "שלום");
    expected.put(word("x-mac-roman", "Café".getBytes("x-MacRoman")), "Café");
    expected.put(word("unknown-8bit", "Café".getBytes("windows-1252")), "Café");
    expected.put(word("cp-850", "Café".getBytes("IBM850")), "Café");
    // 镕 is in GBK, not in GB2312: writers that said gb2312 wrote GBK.
    expected.put(word("gb2312", "朱镕基".getBytes("GBK")), "朱镕基");
    expected.put(word("iso-8859-1", new byte[] {(byte) 0x93, 'o', 'k', (byte) 0x94}), "“ok”");
    expected.put(word("utf-8*en", "über".getBytes(StandardCharsets.UTF_8)), "über");
    expected.put(
        word("x-no-such-charset", new byte[] {'a'}), word("x-no-such-charset", new byte[] {'a'}));
    expected.forEach((encoded, text) ->
        assertThat(MessageHeaders.decodeWords(encoded)).as(encoded).isEqualTo(text));
  }

  @Test
  void rawHeaderBytesAreReadInTheCharsetTheMessageDeclares() throws Exception {
    byte[] koi8 =
        concat(
            "Subject: ".getBytes(StandardCharsets.US_ASCII),
            "Привет".getBytes("KOI8-R"),
            "\nMIME-Version: 1.0\nContent-Type: text/plain;\n charset=\"koi8-r\"\n\nbody\n"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(parse(koi8).subject()).isEqualTo("Привет");
    byte[] sjis =
        concat(
            "From: ".getBytes(StandardCharsets.US_ASCII),
            "山田 <y@x>".getBytes("Shift_JIS"),
            "\nContent-Type: text/plain; charset=Shift_JIS\n\n"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(parse(sjis).sender()).isEqualTo("山田 <y@x>");
    byte[] quotes =
        concat(
            "Subject: ".getBytes(StandardCharsets.US_ASCII),
            new byte[] {(byte) 0x93, 'h', 'i', (byte) 0x94},
            "\n\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(parse(quotes).subject())
        .as("without a charset, raw bytes are Windows-1252 (not C1 controls)")
        .isEqualTo("“hi”");
    byte[] utf8 =
        concat(
            "Subject: ".getBytes(StandardCharsets.US_ASCII),
            "Grüße".getBytes(StandardCharsets.UTF_8),
            "\nContent-Type: text/plain; charset=iso-8859-1\n\n"
                .getBytes(StandardCharsets.US_ASCII));
    assertThat(parse(utf8).subject()).as("valid UTF-8 stays UTF-8").isEqualTo("Grüße");
  }

  private static byte[] concat(byte[]... parts) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
