package org.mailrestore.maildir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.files.Compression;

/**
 * The messages of a Maildir tree as blobs: each message file registered under its digest when its
 * account's items are read, until the caller is done with the items that named it ({@link #settle})
 * or with the account ({@link #release}). Holds one entry per distinct message of the items in
 * flight (about 250 bytes each), so a folder of any size restores in bounded memory.
 *
 * <p>The digest of a message is the one its account's reader computed from the file a moment ago,
 * so a second hash when the file is copied would only prove the file unchanged: that is checked
 * instead by its size, modification time and file key (device and inode), as {@code rsync} and
 * {@code git} do (decision 0020). A small message's bytes, read whole by its reader, are kept until
 * its copy takes them, within a fixed budget: the copy then reads no file at all.
 */
final class MaildirBlobSource implements BlobSource {

  /**
   * A message file as its reader hashed it: the file's own size, and the message's (not the same
   * when the file is compressed).
   */
  private record Hashed(
      Path file,
      long size,
      FileTime modified,
      Object key,
      Compression compression,
      long messageSize) {

    static Hashed of(Path file, BasicFileAttributes attrs) {
      return of(file, attrs, Compression.NONE, attrs.size());
    }

    static Hashed of(
        Path file, BasicFileAttributes attrs, Compression compression, long messageSize) {
      return new Hashed(
          file, attrs.size(), attrs.lastModifiedTime(), attrs.fileKey(), compression, messageSize);
    }

    /** What differs between this and the file now, besides its size, or null when nothing does. */
    String change(Hashed now) {
      if (key != null && !Objects.equals(key, now.key)) {
        return "it was replaced by another file";
      }
      if (!modified.equals(now.modified)) {
        return "it was modified at " + now.modified;
      }
      return null;
    }
  }

  /** Messages up to this size are read whole by their reader and may be kept for their copy. */
  static final int KEPT_UP_TO = 256 * 1024;

  /** At most this many bytes are kept: the copies follow the reader closely, or read the file. */
  static final long KEPT_BYTES = 32L * 1024 * 1024;

  /** A registered file and how many accounts have items in flight that name its digest. */
  private static final class Registered {
    final Hashed hashed;
    int accounts = 1;

    Registered(Hashed hashed) {
      this.hashed = hashed;
    }
  }

  private final Map<BlobDigest, Registered> files = new ConcurrentHashMap<>();

  /** Where the message files may be read from. */
  private final PathFence fence;

  /** Message files read wherever they are (a test's, the CLI's). */
  MaildirBlobSource() {
    this(PathFence.NONE);
  }

  MaildirBlobSource(PathFence fence) {
    this.fence = fence;
  }

  /**
   * Per account in progress, how many of its items read and not yet settled name each digest (an
   * account with a digest here is counted once in {@link #files}).
   */
  private final Map<String, Map<BlobDigest, Integer>> byAccount = new ConcurrentHashMap<>();

  /** The bytes readers hashed, oldest first, until their copy takes them. */
  private final Map<BlobDigest, byte[]> kept = new LinkedHashMap<>();

  private long keptBytes;

  /** Bytes registered since a copy last opened a message: a full budget means no copy follows. */
  private long registeredSinceOpen;

  /** False once no copy followed (a verify, a dry run), until a copy starts. */
  private boolean keeping = true;

  /**
   * Registers a message file hashed to {@code digest}, as its attributes were read before it was
   * hashed.
   *
   * @param content the bytes hashed, when the reader read them whole, or null: kept for the copy
   *     that usually follows within seconds (saving an open and a read), within {@link
   *     #KEPT_BYTES}, the oldest given up first; when a whole budget was registered and no copy
   *     opened a message meanwhile, nothing is kept until a copy opens a message: bytes nobody
   *     takes would only outlive the young generation and fill the heap
   */
  void register(
      String accountId, BlobDigest digest, Path file, BasicFileAttributes before, byte[] content) {
    register(accountId, digest, file, before, content, Compression.NONE, before.size());
  }

  /** As above, for a file holding the message compressed ({@code messageSize} decompressed). */
  void register(
      String accountId,
      BlobDigest digest,
      Path file,
      BasicFileAttributes before,
      byte[] content,
      Compression compression,
      long messageSize) {
    Map<BlobDigest, Integer> pending =
        byAccount.computeIfAbsent(accountId, a -> new ConcurrentHashMap<>());
    if (pending.merge(digest, 1, Integer::sum) == 1) {
      // Another account may hold the same message: the first file registered serves both.
      files.compute(
          digest,
          (d, r) -> {
            if (r == null) {
              return new Registered(Hashed.of(file, before, compression, messageSize));
            }
            r.accounts++;
            return r;
          });
    }
    if (content == null) {
      return;
    }
    synchronized (kept) {
      registeredSinceOpen += content.length;
      if (registeredSinceOpen > KEPT_BYTES) {
        keeping = false;
        kept.clear();
        keptBytes = 0;
      }
      if (!keeping) {
        return;
      }
      if (kept.putIfAbsent(digest, content) == null) {
        keptBytes += content.length;
      }
      var oldest = kept.entrySet().iterator();
      while (keptBytes > KEPT_BYTES && oldest.hasNext()) {
        keptBytes -= oldest.next().getValue().length;
        oldest.remove();
      }
    }
  }

  /**
   * The caller is done with these items of an account: once no item of the account in flight names
   * a digest, its file is forgotten (unless another account's items do) and its kept bytes given
   * up. Items read again register again.
   */
  void settle(String accountId, List<BlobDigest> digests) {
    Map<BlobDigest, Integer> pending = byAccount.get(accountId);
    if (pending == null) {
      return;
    }
    for (BlobDigest digest : digests) {
      boolean[] last = {false};
      pending.computeIfPresent(
          digest,
          (d, n) -> {
            last[0] = n == 1;
            return last[0] ? null : n - 1;
          });
      if (last[0]) {
        forget(digest);
      }
    }
  }

  /**
   * The caller is done with an account's messages: their files are forgotten unless another account
   * in progress holds the same message. Reading the account's items again registers them again.
   */
  void release(String accountId) {
    Map<BlobDigest, Integer> pending = byAccount.remove(accountId);
    if (pending == null) {
      return;
    }
    pending.keySet().forEach(this::forget);
  }

  /** One account fewer names {@code digest}: its file and kept bytes go with the last. */
  private void forget(BlobDigest digest) {
    files.computeIfPresent(digest, (d, r) -> --r.accounts == 0 ? null : r);
    synchronized (kept) {
      byte[] content = kept.remove(digest);
      if (content != null) {
        keptBytes -= content.length;
      }
    }
  }

  /** Messages registered (for tests). */
  int registered() {
    return files.size();
  }

  /** Bytes kept for their copy (for tests). */
  long keptBytes() {
    synchronized (kept) {
      return keptBytes;
    }
  }

  /**
   * The bytes as hashed when they are still kept (given up: a second copy of the same message reads
   * the file), else the file, checked at its end to be still the file hashed: the same size,
   * modification time and file key (decision 0020). Kept bytes need no check: they are the bytes
   * hashed, whatever became of the file since (a live server marking the message read renames it).
   */
  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    Hashed hashed = hashed(digest);
    synchronized (kept) {
      keeping = true;
      registeredSinceOpen = 0;
      byte[] content = kept.remove(digest);
      if (content != null) {
        keptBytes -= content.length;
        return new ByteArrayInputStream(content);
      }
    }
    InputStream file;
    try {
      file = hashed.compression().open(fence, hashed.file());
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "message " + hashed.file() + " disappeared from the Maildir tree");
    }
    return new CheckedAtEnd(file) {
      @Override
      void check(long count) throws IOException {
        checkUnchanged(digest, hashed, count);
      }
    };
  }

  /** Fails unless the file is still the one hashed and {@code count} bytes were its message. */
  private void checkUnchanged(BlobDigest digest, Hashed hashed, long count) throws IOException {
    BasicFileAttributes now;
    try {
      now = fence.attributes(hashed.file());
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "message " + hashed.file() + " disappeared from the Maildir tree while it was read");
    }
    if (now.size() != hashed.size() || count != hashed.messageSize()) {
      throw new BlobException(
          BlobException.Reason.SIZE_MISMATCH,
          "message %s: %d bytes read and %d on disk, not the %d and %d it had when it was hashed"
                  .formatted(hashed.file(), count, now.size(), hashed.messageSize(), hashed.size())
              + " (was the tree changed?)");
    }
    String change = hashed.change(Hashed.of(hashed.file(), now));
    if (change != null) {
      throw new BlobException(
          BlobException.Reason.DIGEST_MISMATCH,
          "message " + hashed.file() + " changed since it was hashed to " + digest + ": " + change);
    }
  }

  /**
   * Checks at end of stream that the count is the size the item declares: the bytes themselves were
   * checked where they came from ({@link #open}), not hashed again.
   */
  @Override
  public InputStream verifying(BlobDigest digest, long expectedSize, InputStream in) {
    Hashed hashed = find(digest);
    if (hashed == null) {
      return BlobSource.super.verifying(digest, expectedSize, in);
    }
    long declared = expectedSize >= 0 ? expectedSize : hashed.messageSize();
    return new CheckedAtEnd(in) {
      @Override
      void check(long count) throws IOException {
        if (count != declared) {
          throw new BlobException(
              BlobException.Reason.SIZE_MISMATCH,
              "message %s: %d bytes read, not the %d its item declares (was the tree changed?)"
                  .formatted(hashed.file(), count, declared));
        }
      }
    };
  }

  @Override
  public String describe(BlobDigest digest) {
    Hashed hashed = find(digest);
    return hashed == null ? "Maildir message with digest " + digest : hashed.file().toString();
  }

  private Hashed find(BlobDigest digest) {
    Registered r = files.get(digest);
    return r == null ? null : r.hashed;
  }

  private Hashed hashed(BlobDigest digest) throws BlobException {
    Hashed hashed = find(digest);
    if (hashed == null) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "no message of the Maildir tree has digest " + digest + " (was the tree changed?)");
    }
    return hashed;
  }
}
