package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A digest is 64 lower-case hex digits, and its bytes are the SHA-256 they spell. */
class BlobDigestTest {

  @Test
  void theBytesAreTheOnesTheDigitsSpell() {
    Random random = new Random(43);
    for (int n = 0; n < 1000; n++) {
      byte[] sha = new byte[32];
      random.nextBytes(sha);
      BlobDigest digest = BlobDigest.of(sha);
      assertThat(digest.hex()).isEqualTo(HexFormat.of().formatHex(sha));
      assertThat(digest.toBytes()).isEqualTo(sha);
      assertThat(BlobDigest.parse(digest.hex()).toBytes()).isEqualTo(sha);
    }
    assertThat(BlobDigest.parse("0".repeat(64)).toBytes()).isEqualTo(new byte[32]);
    byte[] ones = new byte[32];
    java.util.Arrays.fill(ones, (byte) 0xff);
    assertThat(BlobDigest.parse("f".repeat(64)).toBytes()).isEqualTo(ones);
  }

  @Test
  void eachWordIsEightOfTheBytesBigEndian() {
    Random random = new Random(44);
    for (int n = 0; n < 1000; n++) {
      byte[] sha = new byte[32];
      random.nextBytes(sha);
      BlobDigest digest = BlobDigest.of(sha);
      java.nio.ByteBuffer words = java.nio.ByteBuffer.wrap(sha);
      for (int i = 0; i < 4; i++) {
        assertThat(digest.word(i)).as("word %d of %s", i, digest).isEqualTo(words.getLong());
      }
    }
    assertThat(BlobDigest.parse("f".repeat(64)).word(3)).isEqualTo(-1L);
  }

  @Test
  void onlySixtyFourLowerCaseHexDigitsAreADigest() {
    String valid = "0123456789abcdef".repeat(4);
    assertThat(BlobDigest.isValid(valid)).isTrue();
    assertThat(BlobDigest.isValid(null)).isFalse();
    assertThat(BlobDigest.isValid(valid.substring(1))).isFalse();
    assertThat(BlobDigest.isValid(valid + "0")).isFalse();
    for (String bad :
        new String[] {"A", "g", "G", "/", ":", "`", " ", "\u00e9", "\u0660", "\uff10"}) {
      String hex = bad + valid.substring(1);
      assertThat(BlobDigest.isValid(hex)).as("%s first", bad).isFalse();
      assertThat(BlobDigest.isValid(valid.substring(1) + bad)).as("%s last", bad).isFalse();
      assertThatThrownBy(() -> BlobDigest.parse(hex))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("64 lower-case hex digits");
    }
  }
}
