package org.mailrestore.blob;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every SHA-256 of a blob comes from. The JDK hashes at about 190 MB/s when only the client
 * compiler runs (as in a CLI restore: its SHA-256 intrinsic is the server compiler's), so where
 * AWS-LC's native code loads (Amazon Corretto Crypto Provider, Linux x86-64) it hashes instead, at
 * about 2 GB/s whatever the compiler. Loading it takes about 0.2 s, so it loads in the background
 * and the JDK hashes meanwhile; both give the same digests (decision 0022).
 */
public final class Sha256 {

  private static final Logger LOG = LoggerFactory.getLogger(Sha256.class);

  /** AWS-LC's provider once it has loaded; null before, or where it cannot load. */
  private static volatile Provider fast;

  static {
    Thread.ofPlatform().daemon().name("sha256-provider").start(Sha256::load);
  }

  private Sha256() {}

  /** Starts loading the native provider, so that it is ready when the first blobs are hashed. */
  public static void prepare() {
    // The work is done by the class's initializer.
  }

  static MessageDigest newDigest() {
    // A copy of a fresh digest: getInstance looks the provider's service up each time, a
    // measurable part of the CPU at one digest per blob.
    MessageDigest prototype = fast != null ? fastPrototype : JDK_PROTOTYPE;
    try {
      return (MessageDigest) prototype.clone();
    } catch (CloneNotSupportedException e) {
      return instance(fast);
    }
  }

  private static final MessageDigest JDK_PROTOTYPE = instance(null);

  /** A fresh digest of {@link #fast}, set with it. */
  private static volatile MessageDigest fastPrototype;

  private static MessageDigest instance(Provider provider) {
    try {
      return provider != null
          ? MessageDigest.getInstance("SHA-256", provider)
          : MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  /** The provider in use now: for logs and tests. */
  public static String providerName() {
    Provider provider = fast;
    return provider != null ? provider.getName() : "the JDK's";
  }

  private static void load() {
    try {
      AmazonCorrettoCryptoProvider provider = AmazonCorrettoCryptoProvider.INSTANCE;
      Throwable error = provider.getLoadingError();
      if (error != null) {
        LOG.debug("SHA-256 from the JDK: AWS-LC's native code did not load", error);
        return;
      }
      // A digest checked against the JDK's before it is trusted with a blob.
      byte[] probe = "mailrestore".getBytes(StandardCharsets.US_ASCII);
      if (!MessageDigest.isEqual(
          MessageDigest.getInstance("SHA-256", provider).digest(probe),
          MessageDigest.getInstance("SHA-256").digest(probe))) {
        LOG.warn("SHA-256 from the JDK: AWS-LC's digest differs from the JDK's");
        return;
      }
      fastPrototype = instance(provider);
      fast = provider;
    } catch (LinkageError | RuntimeException | NoSuchAlgorithmException e) {
      LOG.debug("SHA-256 from the JDK: AWS-LC's provider is not available", e);
    }
  }
}
