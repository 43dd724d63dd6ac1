package org.mailrestore.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CompressionTest {

  /** A message of about 200 KB: more than three of Dovecot's 64 KiB LZ4 chunks. */
  private static final byte[] MESSAGE = message();

  @Test
  void everyCompressionIsToldByItsFirstBytesAndReadBack() throws IOException {
    assertRoundTrip(Compression.GZIP, gzip(MESSAGE));
    assertRoundTrip(Compression.ZSTD, Zstd.compress(MESSAGE));
    assertRoundTrip(Compression.BZIP2, bzip2(MESSAGE));
    assertRoundTrip(Compression.XZ, xz(MESSAGE));
    assertRoundTrip(Compression.DOVECOT_LZ4, dovecotLz4(MESSAGE, 64 * 1024));
    assertRoundTrip(Compression.NONE, MESSAGE);
  }

  @Test
  void streamsOneAfterAnotherAreOneFileAsTheirToolsReadThem() throws IOException {
    byte[] half = Arrays.copyOf(MESSAGE, MESSAGE.length / 2);
    byte[] rest = Arrays.copyOfRange(MESSAGE, half.length, MESSAGE.length);
    assertThat(read(Compression.BZIP2, concat(bzip2(half), bzip2(rest)))).isEqualTo(MESSAGE);
    assertThat(read(Compression.XZ, concat(xz(half), xz(rest)))).isEqualTo(MESSAGE);
    assertThat(read(Compression.GZIP, concat(gzip(half), gzip(rest)))).isEqualTo(MESSAGE);
  }

  @Test
  void textThatBeginsLikeAMagicNumberIsText() {
    for (String text : new String[] {"BZh, said the bee\r\n", "BZh9 and more\r\n", "Dovecot\r\n"}) {
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      assertThat(Compression.of(bytes, bytes.length)).as(text).isEqualTo(Compression.NONE);
    }
  }

  @Test
  void aDamagedDovecotLz4FileFailsSayingWhere() throws IOException {
    byte[] good = dovecotLz4(MESSAGE, 64 * 1024);
    assertThatThrownBy(() -> read(Compression.DOVECOT_LZ4, Arrays.copyOf(good, good.length - 100)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cut short in its chunk");
    assertThatThrownBy(() -> read(Compression.DOVECOT_LZ4, Arrays.copyOf(good, 12)))
        .hasMessageContaining("cut short in its header");
    byte[] hugeChunk = good.clone();
    ByteBuffer.wrap(hugeChunk).putInt(19, 0x7fff0000);
    assertThatThrownBy(() -> read(Compression.DOVECOT_LZ4, hugeChunk))
        .hasMessageContaining("damaged file");
    byte[] badHeader = good.clone();
    ByteBuffer.wrap(badHeader).putInt(15, 64 * 1024 * 1024);
    assertThatThrownBy(() -> read(Compression.DOVECOT_LZ4, badHeader))
        .hasMessageContaining("chunk size of 67108864 bytes");
    // A chunk that decodes to more than the header's chunk size is refused, not trusted.
    byte[] bigChunks = dovecotLz4(MESSAGE, 128 * 1024);
    ByteBuffer.wrap(bigChunks).putInt(15, 64 * 1024);
    assertThatThrownBy(() -> read(Compression.DOVECOT_LZ4, bigChunks))
        .isInstanceOf(IOException.class);
  }

  @Test
  void namesLoseTheirCompressionsExtension() {
    assertThat(Compression.BZIP2.strip("Lists.mbox.BZ2")).isEqualTo("Lists.mbox");
    assertThat(Compression.XZ.strip("Lists.mbox.xz")).isEqualTo("Lists.mbox");
    assertThat(Compression.XZ.strip(".xz")).isEqualTo(".xz");
    assertThat(Compression.DOVECOT_LZ4.strip("1700000000.M1.host:2,SZ"))
        .isEqualTo("1700000000.M1.host:2,SZ");
  }

  private static void assertRoundTrip(Compression expected, byte[] file) throws IOException {
    int head = Math.min(file.length, Compression.MAGIC_BYTES);
    assertThat(Compression.of(file, head)).isEqualTo(expected);
    assertThat(read(expected, file)).as(expected.label()).isEqualTo(MESSAGE);
  }

  private static byte[] read(Compression compression, byte[] file) throws IOException {
    try (InputStream in = compression.decompress(new ByteArrayInputStream(file))) {
      return in.readAllBytes();
    }
  }

  private static byte[] message() {
    StringBuilder text = new StringBuilder("Subject: compressed\r\n\r\n");
    Random random = new Random(7);
    while (text.length() < 200_000) {
      byte[] line = new byte[57];
      random.nextBytes(line);
      // Half the lines repeat, so that every compressor has something to find.
      text.append(random.nextBoolean() ? Base64.getEncoder().encodeToString(line) : "same line")
          .append("\r\n");
    }
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    return Compressors.compress(Compression.GZIP, bytes);
  }

  private static byte[] bzip2(byte[] bytes) throws IOException {
    return Compressors.compress(Compression.BZIP2, bytes);
  }

  private static byte[] xz(byte[] bytes) throws IOException {
    return Compressors.compress(Compression.XZ, bytes);
  }

  private static byte[] dovecotLz4(byte[] bytes, int chunkSize) throws IOException {
    return Compressors.dovecotLz4(bytes, chunkSize);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
