package org.mailrestore.backup.generate;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * Writes synthetic but well-formed RFC 5322 messages of a target size: headers as a real MTA leaves
 * them, a text body of prose, and for large messages a base64 attachment (incompressible, like the
 * PDFs and images that make real mailboxes large).
 */
final class MessageComposer {

  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
  private static final int LINE = 72;
  private static final int ATTACHMENT_THRESHOLD = 64 * 1024;

  private MessageComposer() {}

  /** The envelope of a message: who, to whom, when, about what. */
  record Envelope(
      String from, String to, String subject, long date, String domain, long uniqueId) {}

  static byte[] compose(SplittableRandom random, Envelope e, int targetSize) {
    ByteText out = new ByteText(targetSize + 256);
    String date = RFC_1123.format(Instant.ofEpochMilli(e.date()));
    out.header("Return-Path", "<" + e.from() + ">");
    out.header(
        "Received",
        "from mx"
            + (1 + random.nextInt(4))
            + "."
            + e.domain()
            + " (mx."
            + e.domain()
            + " [10."
            + random.nextInt(256)
            + "."
            + random.nextInt(256)
            + "."
            + random.nextInt(256)
            + "])\r\n\tby mail."
            + e.domain()
            + " with ESMTP id "
            + HexFormat.of().toHexDigits(random.nextLong())
            + ";\r\n\t"
            + date);
    out.header(
        "Message-ID",
        "<"
            + HexFormat.of().toHexDigits(e.uniqueId())
            + "."
            + random.nextInt(1_000_000)
            + "@"
            + e.domain()
            + ">");
    out.header("Date", date);
    out.header("From", e.from());
    out.header("To", e.to());
    out.header("Subject", e.subject());
    out.header("MIME-Version", "1.0");
    if (targetSize < ATTACHMENT_THRESHOLD) {
      out.header("Content-Type", "text/plain; charset=us-ascii");
      out.header("Content-Transfer-Encoding", "7bit");
      out.crlf();
      prose(random, out, targetSize);
      return out.toByteArray();
    }
    String boundary = "=_mr_" + HexFormat.of().toHexDigits(random.nextLong());
    out.header("Content-Type", "multipart/mixed; boundary=\"" + boundary + "\"");
    out.crlf();
    out.append("This is a multi-part message in MIME format.").crlf().crlf();
    out.append("--" + boundary).crlf();
    out.header("Content-Type", "text/plain; charset=us-ascii");
    out.crlf();
    prose(random, out, out.length() + 600 + random.nextInt(2000));
    out.crlf().append("--" + boundary).crlf();
    out.header("Content-Type", "application/octet-stream; name=\"attachment.bin\"");
    out.header("Content-Transfer-Encoding", "base64");
    out.header("Content-Disposition", "attachment; filename=\"attachment.bin\"");
    out.crlf();
    int remaining = Math.max(1024, targetSize - out.length() - boundary.length() - 8);
    int rawBytes = remaining / 78 * 57;
    byte[] raw = new byte[rawBytes];
    for (int i = 0; i < rawBytes; i += 8) {
      long v = random.nextLong();
      for (int b = 0; b < 8 && i + b < rawBytes; b++) {
        raw[i + b] = (byte) (v >>> (8 * b));
      }
    }
    out.append(Base64.getMimeEncoder(76, new byte[] {'\r', '\n'}).encode(raw)).crlf();
    out.append("--" + boundary + "--").crlf();
    return out.toByteArray();
  }

  /** Appends wrapped prose until the buffer holds {@code targetSize} bytes. */
  private static void prose(SplittableRandom random, ByteText out, int targetSize) {
    int column = 0;
    while (out.length() < targetSize - 2) {
      byte[] word = Words.word(random);
      if (column > 0 && column + 1 + word.length > LINE) {
        out.crlf();
        column = 0;
        if (random.nextInt(8) == 0) {
          out.crlf(); // paragraph
        }
      } else if (column > 0) {
        out.append((byte) ' ');
        column++;
      }
      out.append(word);
      column += word.length;
    }
    out.crlf();
  }
}
