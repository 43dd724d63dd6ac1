package org.mailrestore.blob;

import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The SHA-256 of a blob's raw (uncompressed) bytes, as 64 lower-case hex digits.
 *
 * <p>Lower-case hex keeps blob names unique on case-insensitive file systems and S3 keys readable.
 */
public record BlobDigest(String hex) {

  private static final HexFormat HEX = HexFormat.of();

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
    for (int i = 0; i < 64; i++) {
      char c = hex.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** The 32 bytes; by hand, as {@link HexFormat#parseHex} is slower for a string known valid. */
  public byte[] toBytes() {
    byte[] bytes = new byte[32];
    for (int i = 0; i < 32; i++) {
      bytes[i] = (byte) (nibble(hex.charAt(2 * i)) << 4 | nibble(hex.charAt(2 * i + 1)));
    }
    return bytes;
  }

  private static int nibble(char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10; // valid by construction: 0-9, a-f
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
