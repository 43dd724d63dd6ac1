package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.mailrestore.zimbra.TarReader.BrokenArchiveException;
import org.mailrestore.zimbra.TarReader.Entry;

/** Our tar writer and reader: Zimbra's header, long names, and streams cut short. */
class TarReaderTest {

  @Test
  void writesZimbrasHeaderAndReadsItBack() throws IOException {
    String longName = "Inbox/" + "x".repeat(150) + "/0000000257-Hello.eml";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarWriter tar = new TarWriter(out)) {
      tar.putEntry(
          "Inbox/0000000257-Hello.eml.meta",
          3,
          1_600_000_000L,
          TarWriter.MODE_UNREAD,
          "message",
          5);
      tar.write("{ }".getBytes(StandardCharsets.US_ASCII));
      tar.closeEntry();
      tar.putEntry(longName, 5, 1_600_000_001L, TarWriter.MODE_READ, "message", 5);
      tar.write("hello".getBytes(StandardCharsets.US_ASCII));
      tar.finish();
    }
    byte[] bytes = out.toByteArray();
    assertThat(bytes.length % 10240).as("padded to a 10240-byte record").isZero();
    assertThat(Arrays.copyOfRange(bytes, 257, 265))
        .as("ustar magic with NUL version bytes")
        .isEqualTo(new byte[] {'u', 's', 't', 'a', 'r', 0, 0, 0});
    assertThat(new String(bytes, 297, 7, StandardCharsets.US_ASCII)).isEqualTo("message");
    assertThat(bytes[265]).as("empty user name").isZero();

    TarReader reader = new TarReader(new ByteArrayInputStream(bytes));
    Entry meta = reader.next();
    assertThat(meta.name()).isEqualTo("Inbox/0000000257-Hello.eml.meta");
    assertThat(meta.devMajor()).isEqualTo(5);
    assertThat(meta.group()).isEqualTo("message");
    assertThat(meta.mtime()).isEqualTo(1_600_000_000L);
    assertThat(meta.unread()).isTrue();
    Entry content = reader.next(); // the meta's bytes are passed over
    assertThat(content.name()).isEqualTo(longName);
    assertThat(content.unread()).isFalse();
    assertThat(reader.content().readAllBytes())
        .isEqualTo("hello".getBytes(StandardCharsets.US_ASCII));
    assertThat(reader.next()).isNull();
  }

  @Test
  void aStreamCutShortSaysWhereAndStaysBroken() throws IOException {
    byte[] tar =
        new ArchiveBuilder()
            .entry("a.eml", "x".repeat(2000).getBytes(StandardCharsets.US_ASCII))
            .entry("b.eml", "y".repeat(2000).getBytes(StandardCharsets.US_ASCII))
            .tar();
    byte[] cut = Arrays.copyOf(tar, 512 + 2048 + 512 + 100); // inside b's content
    TarReader reader = new TarReader(new ByteArrayInputStream(cut));
    assertThat(reader.next().name()).isEqualTo("a.eml");
    assertThat(reader.next().name()).isEqualTo("b.eml");
    assertThatThrownBy(() -> reader.content().readAllBytes())
        .isInstanceOf(BrokenArchiveException.class)
        .hasMessageContaining("ends inside entry b.eml")
        .satisfies(e -> assertThat(((BrokenArchiveException) e).offset()).isEqualTo(cut.length));
    assertThatThrownBy(reader::next).isInstanceOf(BrokenArchiveException.class);
  }

  @Test
  void aCutGzipStreamIsBrokenNotAnEnd() {
    byte[] tgz =
        new ArchiveBuilder()
            .entry("a.eml", "x".repeat(200_000).getBytes(StandardCharsets.US_ASCII))
            .tgz();
    byte[] cut = Arrays.copyOf(tgz, tgz.length / 2);
    assertThatThrownBy(
            () -> {
              TarReader reader = new TarReader(new GZIPInputStream(new ByteArrayInputStream(cut)));
              reader.next();
              reader.content().readAllBytes();
            })
        .isInstanceOf(BrokenArchiveException.class)
        .hasMessageContaining("compressed stream ends early");
  }

  @Test
  void aCorruptHeaderIsRefusedByItsChecksum() throws IOException {
    byte[] tar =
        new ArchiveBuilder().entry("a.eml", new byte[10]).entry("b.eml", new byte[10]).tar();
    tar[1024 + 5] ^= 0x20; // b's name, checksum now wrong
    TarReader reader = new TarReader(new ByteArrayInputStream(tar));
    assertThat(reader.next().name()).isEqualTo("a.eml");
    assertThatThrownBy(reader::next)
        .isInstanceOf(BrokenArchiveException.class)
        .hasMessageContaining("checksum")
        .satisfies(e -> assertThat(((BrokenArchiveException) e).offset()).isEqualTo(1024));
  }

  @Test
  void readsPaxPathsAndSizes() throws IOException {
    String path = "Inbox/" + "\u00e9".repeat(80) + ".eml";
    byte[] record = paxRecord("path=" + path);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(header("PaxHeaders/x", record.length, 'x'));
    out.writeBytes(Arrays.copyOf(record, 512));
    out.writeBytes(header("short-name", 3, '0'));
    out.writeBytes(Arrays.copyOf("abc".getBytes(StandardCharsets.US_ASCII), 512));
    out.writeBytes(new byte[1024]);
    TarReader reader = new TarReader(new ByteArrayInputStream(out.toByteArray()));
    Entry e = reader.next();
    assertThat(e.name()).isEqualTo(path);
    assertThat(reader.content().readAllBytes())
        .isEqualTo("abc".getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] paxRecord(String kv) {
    byte[] body = (" " + kv + "\n").getBytes(StandardCharsets.UTF_8);
    int length = body.length + 1;
    while (String.valueOf(length).length() + body.length != length) {
      length = String.valueOf(length).length() + body.length;
    }
    return (length + " " + kv + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** A plain ustar header (the form GNU tar and others write). */
  private static byte[] header(String name, long size, char type) {
    byte[] h = new byte[512];
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(n, 0, h, 0, n.length);
    put(h, 100, "0000644");
    put(h, 108, "0000000");
    put(h, 116, "0000000");
    put(h, 124, String.format("%011o", size));
    put(h, 136, "14000000000");
    h[156] = (byte) type;
    put(h, 257, "ustar");
    h[263] = '0';
    h[264] = '0';
    Arrays.fill(h, 148, 156, (byte) ' ');
    long sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    put(h, 148, String.format("%06o", sum));
    h[154] = 0;
    return h;
  }

  private static void put(byte[] h, int offset, String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(b, 0, h, offset, b.length);
  }
}
