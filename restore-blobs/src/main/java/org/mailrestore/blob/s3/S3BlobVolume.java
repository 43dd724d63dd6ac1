package org.mailrestore.blob.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.Decompressing;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.Streams;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * One object per blob in a bucket, named by {@link BlobLayout}. An object is visible only when its
 * upload completed (a PUT, or a completed multipart upload), which also makes it durable: {@link
 * #sync()} has nothing left to do. Large blobs go as multipart uploads of {@code partSize} parts,
 * several in parallel; a failed one is aborted.
 */
public final class S3BlobVolume implements BlobVolume {

  /** S3's smallest part (except the last). */
  public static final int MIN_PART_SIZE = 5 << 20;

  public static final int DEFAULT_PART_SIZE = 8 << 20;

  /**
   * What a volume's uploads hold in memory at once: two multipart uploads of the default part size
   * with four parts in flight, and room beside them for the small blobs of a cluster.
   */
  public static final long DEFAULT_UPLOAD_MEMORY = 96L << 20;

  private final S3Client client;
  private final S3Location location;
  private final BlobCompression compression;
  private final long compressionThreshold;
  private final int partSize;
  private final int partsInFlight;
  private final UploadMemory memory;
  private final ExecutorService parts = Executors.newVirtualThreadPerTaskExecutor();

  public S3BlobVolume(S3Client client, S3Location location) {
    this(client, location, BlobCompression.NONE, 0, DEFAULT_PART_SIZE, 4);
  }

  /**
   * @param partSize multipart part size (at least 5 MiB); blobs up to it are one PUT
   * @param partsInFlight parts of one blob uploaded at once
   */
  public S3BlobVolume(
      S3Client client,
      S3Location location,
      BlobCompression compression,
      long compressionThreshold,
      int partSize,
      int partsInFlight) {
    this(
        client,
        location,
        compression,
        compressionThreshold,
        partSize,
        partsInFlight,
        DEFAULT_UPLOAD_MEMORY);
  }

  /**
   * @param uploadMemory bytes the uploads may hold in memory at once; an upload waits for its share
   */
  S3BlobVolume(
      S3Client client,
      S3Location location,
      BlobCompression compression,
      long compressionThreshold,
      int partSize,
      int partsInFlight,
      long uploadMemory) {
    if (partSize < MIN_PART_SIZE) {
      throw new IllegalArgumentException("S3 parts must be at least 5 MiB, got " + partSize);
    }
    this.client = client;
    this.location = location;
    this.compression = compression;
    this.compressionThreshold = compressionThreshold;
    this.partSize = partSize;
    this.partsInFlight = Math.max(1, partsInFlight);
    this.memory = new UploadMemory(uploadMemory);
  }

  @Override
  public StoredBlob write(BlobDigest digest, long sizeHint, InputStream content)
      throws IOException {
    BlobCompression use =
        sizeHint >= 0 && sizeHint >= compressionThreshold ? compression : BlobCompression.NONE;
    String locator = BlobLayout.relativeName(digest, use);
    boolean onePut = sizeHint >= 0 && sizeHint < partSize;
    // A blob of known size up to a part is held whole (compressed, it is smaller); anything else
    // holds the part being filled and those in flight.
    long holds = onePut ? sizeHint : (long) partSize * (partsInFlight + 1);
    try (UploadMemory.Reservation unused = memory.reserve(holds)) {
      S3Upload upload =
          new S3Upload(
              client,
              location.bucket(),
              location.key(locator),
              partSize,
              partsInFlight,
              parts,
              onePut ? (int) sizeHint : -1);
      OutputStream out = use.compress(upload);
      long raw;
      try {
        raw = Streams.copy(content, out, sizeHint);
        out.close(); // finishes the compressed stream, then completes the upload
      } catch (IOException | RuntimeException e) {
        upload.abort(); // before the close below, which must not complete the upload
        closeQuietly(out);
        throw e;
      }
      return new StoredBlob(digest, locator, raw, upload.total());
    }
  }

  /** The most the uploads held in memory at once so far, in bytes. */
  long uploadMemoryPeak() {
    return memory.peakBytes();
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException | RuntimeException e) {
      // The upload is aborted; this only frees the compressor.
    }
  }

  @Override
  public InputStream open(StoredBlob blob) throws IOException {
    String key = location.key(blob.locator());
    String where = location + blob.locator();
    InputStream raw;
    try {
      raw = client.getObject(b -> b.bucket(location.bucket()).key(key));
    } catch (NoSuchKeyException e) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "blob " + blob.digest() + " is missing: no object " + where,
          e);
    } catch (SdkException e) {
      throw S3Errors.io("reading", where, e);
    }
    return Decompressing.open(raw, BlobCompression.fromName(blob.locator()), () -> where);
  }

  @Override
  public void sync() {
    // A completed upload is durable: nothing to do.
  }

  S3Client client() {
    return client;
  }

  S3Location location() {
    return location;
  }

  @Override
  public void check() throws IOException {
    try {
      client.headBucket(b -> b.bucket(location.bucket()));
    } catch (SdkException e) {
      throw new IOException(
          "bucket " + location.bucket() + " does not answer: " + S3Errors.describe(e), e);
    }
  }

  @Override
  public String describe() {
    return "S3 volume "
        + location
        + (compression == BlobCompression.NONE ? "" : " (" + compression + ")");
  }

  @Override
  public void close() {
    parts.shutdown();
  }
}
