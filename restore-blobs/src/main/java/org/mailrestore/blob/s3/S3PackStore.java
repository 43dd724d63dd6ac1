package org.mailrestore.blob.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.pack.PackStore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Packs as objects in a bucket. Appends go to a pack in memory; {@link #sync()} seals it and PUTs
 * it, so a restore's cluster of small blobs costs one request instead of one each. A pack also goes
 * out as soon as it reaches its maximum size. Reads are ranged GETs.
 */
public final class S3PackStore implements PackStore {

  public static final int DEFAULT_MAX_PACK_SIZE = 32 << 20;

  /** A pack in memory, until its upload completes. */
  private static final class OpenPack {
    final String name;
    byte[] bytes = new byte[64 * 1024];
    int size;
    CompletableFuture<Void> uploaded;

    OpenPack(String name) {
      this.name = name;
    }
  }

  private final S3Client client;
  private final S3Location location;
  private final int maxPackSize;
  private final String instance = UUID.randomUUID().toString().substring(0, 8);
  private final Map<String, OpenPack> inMemory = new ConcurrentHashMap<>();
  private final List<OpenPack> sealed = new ArrayList<>();
  private final Object lock = new Object();
  private int sequence;
  private OpenPack current;

  public S3PackStore(S3Client client, S3Location location, int maxPackSize) {
    this.client = client;
    this.location = location;
    this.maxPackSize = maxPackSize;
  }

  @Override
  public Slot append(byte[] bytes, int offset, int length) throws IOException {
    OpenPack full = null;
    Slot slot;
    synchronized (lock) {
      if (current == null) {
        current = new OpenPack(instance + "-" + (++sequence) + ".pack");
        inMemory.put(current.name, current);
      }
      OpenPack pack = current;
      if (pack.size + length > pack.bytes.length) {
        pack.bytes = Arrays.copyOf(pack.bytes, Math.max(pack.bytes.length * 2, pack.size + length));
      }
      System.arraycopy(bytes, offset, pack.bytes, pack.size, length);
      slot = new Slot(pack.name, pack.size);
      pack.size += length;
      if (pack.size >= maxPackSize) {
        full = seal();
      }
    }
    if (full != null) {
      upload(full);
    }
    return slot;
  }

  /** Takes the current pack out of the appendable state; called under the lock. */
  private OpenPack seal() {
    OpenPack pack = current;
    current = null;
    pack.uploaded = new CompletableFuture<>();
    sealed.add(pack);
    return pack;
  }

  private void upload(OpenPack pack) {
    byte[] bytes = pack.bytes;
    int size = pack.size;
    try {
      client.putObject(
          b -> b.bucket(location.bucket()).key(location.key(pack.name)).contentLength((long) size),
          RequestBody.fromContentProvider(
              () -> new ByteArrayInputStream(bytes, 0, size), size, "application/octet-stream"));
      inMemory.remove(pack.name);
      pack.uploaded.complete(null);
    } catch (RuntimeException e) {
      pack.uploaded.completeExceptionally(e);
    }
  }

  @Override
  public void sync() throws IOException {
    OpenPack mine = null;
    List<OpenPack> waitFor;
    synchronized (lock) {
      if (current != null && current.size > 0) {
        mine = seal();
      }
      waitFor = new ArrayList<>(sealed);
    }
    if (mine != null) {
      upload(mine);
    }
    for (OpenPack pack : waitFor) {
      try {
        pack.uploaded.get();
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof SdkException sdk
            ? S3Errors.io("uploading", location + pack.name, sdk)
            : new IOException("uploading " + location + pack.name + " failed: " + cause, cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while uploading packs", e);
      }
    }
    synchronized (lock) {
      sealed.removeIf(p -> p.uploaded.isDone() && !p.uploaded.isCompletedExceptionally());
    }
  }

  @Override
  public InputStream read(String pack, long offset, long length) throws IOException {
    OpenPack open = inMemory.get(pack);
    if (open != null) {
      synchronized (lock) {
        return new ByteArrayInputStream(open.bytes, (int) offset, (int) length);
      }
    }
    String key = location.key(pack);
    try {
      return client.getObject(b ->
          b.bucket(location.bucket())
              .key(key)
              .range("bytes=" + offset + "-" + (offset + length - 1)));
    } catch (NoSuchKeyException e) {
      throw new BlobException(
          BlobException.Reason.MISSING, "pack " + location + pack + " is missing", e);
    } catch (SdkException e) {
      throw S3Errors.io("reading", location + pack, e);
    }
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
    return "S3 packs in " + location;
  }

  @Override
  public void close() throws IOException {
    sync();
  }
}
