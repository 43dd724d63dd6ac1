package org.mailrestore.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class VerifyingInputStreamTest {

  private static final byte[] CONTENT =
      "Subject: hi\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);

  @Test
  void passesMatchingContent() throws IOException {
    BlobDigest digest = BlobDigest.ofContent(CONTENT);
    try (var in =
        new VerifyingInputStream(
            new ByteArrayInputStream(CONTENT), digest, CONTENT.length, () -> "t")) {
      assertThat(in.readAllBytes()).isEqualTo(CONTENT);
      assertThat(in.count()).isEqualTo(CONTENT.length);
    }
  }

  @Test
  void skippedBytesAreStillHashed() throws IOException {
    BlobDigest digest = BlobDigest.ofContent(CONTENT);
    try (var in =
        new VerifyingInputStream(new ByteArrayInputStream(CONTENT), digest, -1, () -> "t")) {
      assertThat(in.skip(5)).isEqualTo(5);
      in.readAllBytes();
    }
  }

  @Test
  void failsOnTheLastReadWhenTheDigestDiffers() {
    BlobDigest other = BlobDigest.ofContent("other".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(
            () -> {
              try (var in =
                  new VerifyingInputStream(
                      new ByteArrayInputStream(CONTENT), other, -1, () -> "where")) {
                in.readAllBytes();
              }
            })
        .isInstanceOf(BlobException.class)
        .hasMessageContaining("where")
        .hasMessageContaining(other.hex());
  }

  @Test
  void failsAsSoonAsTheBlobIsLongerThanDeclared() {
    BlobDigest digest = BlobDigest.ofContent(CONTENT);
    assertThatThrownBy(
            () -> {
              try (var in =
                  new VerifyingInputStream(
                      new ByteArrayInputStream(CONTENT), digest, 4, () -> "w")) {
                in.readNBytes(10);
              }
            })
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.SIZE_MISMATCH));
  }

  @Test
  void digestsAreValidated() {
    assertThatThrownBy(() -> BlobDigest.parse("ABC")).hasMessageContaining("64 lower-case hex");
    assertThatThrownBy(() -> BlobDigest.parse("../../etc/passwd"))
        .isInstanceOf(IllegalArgumentException.class);
    String upper = BlobDigest.ofContent(CONTENT).hex().toUpperCase(java.util.Locale.ROOT);
    assertThatThrownBy(() -> BlobDigest.parse(upper)).isInstanceOf(IllegalArgumentException.class);
  }
}
