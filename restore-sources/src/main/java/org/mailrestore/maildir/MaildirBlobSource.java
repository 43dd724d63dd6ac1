package org.mailrestore.maildir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;

/**
 * The messages of a Maildir tree as blobs: each message file registered under its digest when its
 * account's items are read. Holds one entry per distinct message (about 150 bytes each).
 */
final class MaildirBlobSource implements BlobSource {

  private final Map<BlobDigest, Path> files = new ConcurrentHashMap<>();

  void register(BlobDigest digest, Path file) {
    files.putIfAbsent(digest, file);
  }

  @Override
  public InputStream open(BlobDigest digest) throws IOException {
    Path file = files.get(digest);
    if (file == null) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "no message of the Maildir tree has digest " + digest + " (was the tree changed?)");
    }
    try {
      return Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      throw new BlobException(
          BlobException.Reason.MISSING, "message " + file + " disappeared from the Maildir tree");
    }
  }

  @Override
  public String describe(BlobDigest digest) {
    Path file = files.get(digest);
    return file == null ? "Maildir message with digest " + digest : file.toString();
  }
}
