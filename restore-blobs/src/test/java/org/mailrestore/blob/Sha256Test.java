package org.mailrestore.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Sha256Test {

  /** Where the native provider ships (Linux x86-64), waits until it hashes; true if so. */
  private static boolean nativeProviderLoaded() throws InterruptedException {
    if (!(System.getProperty("os.name").startsWith("Linux")
        && System.getProperty("os.arch").equals("amd64"))) {
      return false;
    }
    Sha256.prepare();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!Sha256.providerName().contains("Corretto") && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return true;
  }

  @Test
  void theNativeProviderLoadsOnLinuxX8664() throws InterruptedException {
    assumeTrue(nativeProviderLoaded(), "AWS-LC's provider ships native code for Linux x86-64");
    assertEquals("AmazonCorrettoCryptoProvider", Sha256.providerName());
  }

  @Test
  void digestsAreTheJdksWhateverTheProviderAndTheWayTheBytesArrive() throws Exception {
    var unused = nativeProviderLoaded();
    Random random = new Random(42);
    for (int size : new int[] {0, 1, 55, 56, 63, 64, 65, 4096, 1 << 20, (1 << 20) + 7}) {
      byte[] bytes = new byte[size];
      random.nextBytes(bytes);
      byte[] expected = MessageDigest.getInstance("SHA-256", "SUN").digest(bytes);

      assertArrayEquals(expected, BlobDigest.newSha256().digest(bytes), "whole, size " + size);
      MessageDigest pieces = BlobDigest.newSha256();
      for (int at = 0; at < size; ) {
        int n = Math.min(size - at, 1 + random.nextInt(9000));
        pieces.update(bytes, at, n);
        at += n;
      }
      assertArrayEquals(expected, pieces.digest(), "in pieces, size " + size);
      assertEquals(BlobDigest.of(expected), BlobDigest.ofContent(bytes));
    }
  }

  @Test
  void digestsMadeAtOnceAreIndependent() throws Exception {
    var unused = nativeProviderLoaded();
    MessageDigest a = BlobDigest.newSha256();
    MessageDigest b = BlobDigest.newSha256();
    a.update("one".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    b.update("two".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(
        BlobDigest.ofContent("one".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
        BlobDigest.of(a.digest()));
    assertEquals(
        BlobDigest.ofContent("two".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
        BlobDigest.of(b.digest()));
  }

  @Test
  void aDigestsBytesAreItsHexDigits() {
    Random random = new Random(7);
    for (int i = 0; i < 1000; i++) {
      byte[] bytes = new byte[32];
      random.nextBytes(bytes);
      BlobDigest digest = BlobDigest.of(bytes);
      assertArrayEquals(bytes, digest.toBytes());
      assertArrayEquals(java.util.HexFormat.of().parseHex(digest.hex()), digest.toBytes());
    }
  }
}
