package org.mailrestore.maildir;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;

/**
 * The messages of a Maildir tree as blobs: each message file registered under its digest when its
 * account's items are read. Holds one entry per distinct message (about 250 bytes each).
 *
 * <p>The digest of a message is the one its account's reader computed from the file a moment ago,
 * so a second hash when the file is copied would only prove the file unchanged: that is checked
 * instead by its size, modification time and file key (device and inode), as {@code rsync} and
 * {@code git} do (decision 0020).
 */
final class MaildirBlobSource implements BlobSource {

  /** A message file as its reader hashed it. */
  private record Hashed(Path file, long size, FileTime modified, Object key) {

    static Hashed of(Path file, BasicFileAttributes attrs) {
      return new Hashed(file, attrs.size(), attrs.lastModifiedTime(), attrs.fileKey());
    }

    /** What differs between this and the file now, or null when nothing does. */
    String change(Hashed now) {
      if (key != null && !Objects.equals(key, now.key)) {
        return "it was replaced by another file";
      }
      if (size != now.size) {
        return "its size went from " + size + " to " + now.size + " bytes";
      }
      if (!modified.equals(now.modified)) {
        return "it was modified at " + now.modified;
      }
      return null;
    }
  }

  private final Map<BlobDigest, Hashed> files = new ConcurrentHashMap<>();

  /**
   * Registers a message file hashed to {@code digest}, as its attributes were read before it was
   * hashed.
   */
  void register(BlobDigest digest, Path file, BasicFileAttributes before) {
    files.putIfAbsent(digest, Hashed.of(file, before));
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    Hashed hashed = hashed(digest);
    try {
      return Files.newInputStream(hashed.file(), LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "message " + hashed.file() + " disappeared from the Maildir tree");
    }
  }

  /** Checks at end of stream that the file is still the one hashed, and the count its size. */
  @Override
  public InputStream verifying(BlobDigest digest, long expectedSize, InputStream in) {
    Hashed hashed = files.get(digest);
    if (hashed == null) {
      return BlobSource.super.verifying(digest, expectedSize, in);
    }
    return new FilterInputStream(in) {
      private long count;
      private boolean checked;

      @Override
      public int read() throws IOException {
        int b = in.read();
        if (b < 0) {
          checkAtEnd();
        } else {
          count++;
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n < 0) {
          checkAtEnd();
        } else {
          count += n;
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        count += skipped;
        return skipped;
      }

      @Override
      public boolean markSupported() {
        return false;
      }

      private void checkAtEnd() throws IOException {
        if (checked) {
          return;
        }
        checked = true;
        long declared = expectedSize >= 0 ? expectedSize : hashed.size();
        if (count != declared || count != hashed.size()) {
          throw new BlobException(
              BlobException.Reason.SIZE_MISMATCH,
              "message "
                  + hashed.file()
                  + " has "
                  + count
                  + " bytes, not the "
                  + declared
                  + " it had when it was read (was the tree changed?)");
        }
        BasicFileAttributes now;
        try {
          now =
              Files.readAttributes(
                  hashed.file(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          throw new BlobException(
              BlobException.Reason.MISSING,
              "message " + hashed.file() + " disappeared from the Maildir tree while it was read");
        }
        String change = hashed.change(Hashed.of(hashed.file(), now));
        if (change != null) {
          throw new BlobException(
              BlobException.Reason.DIGEST_MISMATCH,
              "message "
                  + hashed.file()
                  + " changed since it was hashed to "
                  + digest
                  + ": "
                  + change);
        }
      }
    };
  }

  @Override
  public String describe(BlobDigest digest) {
    Hashed hashed = files.get(digest);
    return hashed == null ? "Maildir message with digest " + digest : hashed.file().toString();
  }

  private Hashed hashed(BlobDigest digest) throws BlobException {
    Hashed hashed = files.get(digest);
    if (hashed == null) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "no message of the Maildir tree has digest " + digest + " (was the tree changed?)");
    }
    return hashed;
  }
}
