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
}
