package org.mailrestore.blob;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The SHA-256 of a blob's raw (uncompressed) bytes, as 64 lower-case hex digits.
 *
 * <p>Lower-case hex keeps blob names unique on case-insensitive file systems and S3 keys readable.
 */
public record BlobDigest(String hex) {

  private static final HexFormat HEX = HexFormat.of();

  /** The value of each lower-case hex digit by its ASCII code; -1 for any other character. */
  private static final byte[] NIBBLES = new byte[128];

  static {
    Arrays.fill(NIBBLES, (byte) -1);
    for (int c = '0'; c <= '9'; c++) {
      NIBBLES[c] = (byte) (c - '0');
    }
    for (int c = 'a'; c <= 'f'; c++) {
      NIBBLES[c] = (byte) (c - 'a' + 10);
    }
  }

  public BlobDigest {
    if (!isValid(hex)) {
      throw new IllegalArgumentException(
          "not a blob digest (want 64 lower-case hex digits of a SHA-256): " + abbreviate(hex));
    }
  }

  /** Parses a digest, failing with a message that quotes the offending text. */
  public static BlobDigest parse(String hex) {
    return new BlobDigest(hex);
  }

  public static BlobDigest of(byte[] sha256) {
    if (sha256.length != 32) {
      throw new IllegalArgumentException("a SHA-256 has 32 bytes, got " + sha256.length);
    }
    return new BlobDigest(HEX.formatHex(sha256));
  }

  /** Digest of an in-memory byte array; for generators and tests. */
  public static BlobDigest ofContent(byte[] content) {
    return of(newSha256().digest(content));
  }

  public static boolean isValid(String hex) {
    if (hex == null || hex.length() != 64) {
      return false;
    }
    // A character beyond Latin-1 becomes '?', which is no hex digit either.
    for (byte b : hex.getBytes(StandardCharsets.ISO_8859_1)) {
      if (b < 0 || NIBBLES[b] < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The 32 bytes. By hand from the string's Latin-1 bytes and a table: {@link HexFormat#parseHex}
   * is four times slower and {@code charAt} per digit five, under the client compiler, and this
   * runs for each blob's rows.
   */
  public byte[] toBytes() {
    byte[] digits = hex.getBytes(StandardCharsets.ISO_8859_1);
    byte[] bytes = new byte[32];
    for (int i = 0; i < 32; i++) {
      bytes[i] = (byte) (NIBBLES[digits[2 * i]] << 4 | NIBBLES[digits[2 * i + 1]]);
    }
    return bytes;
  }

  /**
   * Bytes {@code 8 * index} to {@code 8 * index + 7} of the digest as one big-endian long ({@code
   * index} 0 to 3): evenly spread bits, whatever the content, for filters and tables. From the
   * digits by the same table as {@link #toBytes}: {@link Long#parseUnsignedLong} was half of a
   * filter's look-up, under the client compiler.
   */
  public long word(int index) {
    long word = 0;
    for (int i = 16 * index, end = i + 16; i < end; i++) {
      word = word << 4 | NIBBLES[hex.charAt(i)];
    }
    return word;
  }

  /** The first two hex digits: the fan-out directory (or key prefix) of the blob. */
  public String shard() {
    return hex.substring(0, 2);
  }

  /** A fresh SHA-256 digest, from the fastest provider loaded ({@link Sha256}). */
  public static MessageDigest newSha256() {
    return Sha256.newDigest();
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  @Override
  public String toString() {
    return hex;
  }
}
