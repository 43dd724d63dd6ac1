package org.mailrestore.blob.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import org.mailrestore.blob.BlobException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * An object upload as an output stream. Up to one part it is a single PUT when closed; beyond, a
 * multipart upload whose parts go out in parallel (at most {@code partsInFlight}, so memory stays
 * at that many part buffers) and which completes when closed. The object becomes visible only then;
 * {@link #abort()} instead discards everything, and a later {@code close} is a no-op.
 */
final class S3Upload extends OutputStream {

  /** The first buffer of an upload of unknown size; it grows fourfold up to a part. */
  private static final int FIRST_BUFFER = 64 * 1024;

  private final S3Client client;
  private final String bucket;
  private final String key;
  private final int partSize;
  private final Semaphore inFlight;
  private final Executor executor;
  private final List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
  private byte[] buffer;
  private int filled;
  private long total;
  private String uploadId;
  private boolean done;

  /**
   * @param expectedSize the bytes expected, or -1: the first buffer holds them (up to a part), so a
   *     blob of known size is not copied as its buffer grows
   */
  S3Upload(
      S3Client client,
      String bucket,
      String key,
      int partSize,
      int partsInFlight,
      Executor executor,
      int expectedSize) {
    this.client = client;
    this.bucket = bucket;
    this.key = key;
    this.partSize = partSize;
    this.inFlight = new Semaphore(partsInFlight);
    this.executor = executor;
    this.buffer = new byte[Math.min(partSize, expectedSize >= 0 ? expectedSize : FIRST_BUFFER)];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      if (filled == buffer.length) {
        if (buffer.length < partSize) {
          buffer =
              java.util.Arrays.copyOf(
                  buffer, Math.min(partSize, Math.max(FIRST_BUFFER, buffer.length * 4)));
        } else {
          shipPart();
        }
      }
      int n = Math.min(len, buffer.length - filled);
      System.arraycopy(b, off, buffer, filled, n);
      filled += n;
      off += n;
      len -= n;
      total += n;
    }
  }

  /** Bytes written so far (after any compression applied before this stream). */
  long total() {
    return total;
  }

  private void shipPart() throws IOException {
    if (uploadId == null) {
      try {
        uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
      } catch (SdkException e) {
        throw S3Errors.io("starting the upload of", where(), e);
      }
    }
    int partNumber = parts.size() + 1;
    byte[] part = buffer;
    int length = filled;
    buffer = new byte[partSize];
    filled = 0;
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while uploading " + where(), e);
    }
    parts.add(
        CompletableFuture.supplyAsync(
            () -> {
              try {
                String etag =
                    client
                        .uploadPart(
                            b ->
                                b.bucket(bucket)
                                    .key(key)
                                    .uploadId(uploadId)
                                    .partNumber(partNumber)
                                    .contentLength((long) length),
                            body(part, length))
                        .eTag();
                return CompletedPart.builder().partNumber(partNumber).eTag(etag).build();
              } finally {
                inFlight.release();
              }
            },
            executor));
  }

  /** A body the SDK can re-read for a retry, without copying the part. */
  private static RequestBody body(byte[] bytes, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(bytes, 0, length), length, "application/octet-stream");
  }

  /** Completes the upload: the object is then visible, and durable. */
  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    try {
      if (uploadId == null) {
        byte[] last = buffer;
        int length = filled;
        client.putObject(
            b -> b.bucket(bucket).key(key).contentLength((long) length), body(last, length));
        return;
      }
      if (filled > 0) {
        shipPart();
      }
      List<CompletedPart> completed = new ArrayList<>(parts.size());
      for (CompletableFuture<CompletedPart> part : parts) {
        completed.add(part.get());
      }
      completed.sort(Comparator.comparingInt(CompletedPart::partNumber));
      client.completeMultipartUpload(b ->
          b.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(completed)));
    } catch (SdkException e) {
      abortQuietly();
      throw S3Errors.io("uploading", where(), e);
    } catch (ExecutionException e) {
      abortQuietly();
      Throwable cause = e.getCause();
      if (cause instanceof SdkException sdk) {
        throw S3Errors.io("uploading a part of", where(), sdk);
      }
      throw new BlobException(
          BlobException.Reason.IO_ERROR,
          "uploading a part of " + where() + " failed: " + cause,
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abortQuietly();
      throw new IOException("interrupted while uploading " + where(), e);
    }
  }

  /** Discards the upload: nothing becomes visible. */
  void abort() {
    if (done) {
      return;
    }
    done = true;
    abortQuietly();
  }

  private void abortQuietly() {
    parts.forEach(p -> p.cancel(true));
    if (uploadId != null) {
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
      } catch (SdkException e) {
        // The bucket's lifecycle rule for incomplete uploads removes what is left.
      }
    }
  }

  private String where() {
    return "s3://" + bucket + "/" + key;
  }
}
