package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.LocalBlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.source.LocalIdentity;

/** A backup in a local directory. */
public final class LocalBackupStorage implements BackupStorage {

  private final Path root;
  private final BlobSource blobs;
  private final PathFence fence;

  public LocalBackupStorage(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.blobs = new LocalBlobSource(this.root.resolve(BackupLayout.BLOBS));
    this.fence = PathFence.NONE;
  }

  /**
   * @param blobs the backup's blobs (normally a {@link LocalBlobSource} of {@code root/blobs},
   *     maybe decorated)
   */
  public LocalBackupStorage(Path root, BlobSource blobs) {
    this(root, blobs, PathFence.NONE);
  }

  /**
   * @param fence where the backup's files may be: every file is checked against it as it is opened
   */
  public LocalBackupStorage(Path root, BlobSource blobs, PathFence fence) {
    this.root = root.toAbsolutePath().normalize();
    this.blobs = blobs;
    this.fence = fence;
  }

  private Path resolve(String path) {
    Path resolved = root.resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      throw new IllegalArgumentException("path escapes the backup root: " + path);
    }
    return resolved;
  }

  @Override
  public InputStream open(String path) throws IOException {
    return fence.open(resolve(path));
  }

  @Override
  public boolean exists(String path) {
    return Files.exists(resolve(path));
  }

  @Override
  public List<String> list(String directory) throws IOException {
    List<String> names = new ArrayList<>();
    try {
      for (Path name : fence.names(resolve(directory))) {
        names.add(name.toString());
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of(); // no such directory: nothing under it
    }
    Collections.sort(names);
    return names;
  }

  @Override
  public BlobSource blobSource() {
    return blobs;
  }

  public Path root() {
    return root;
  }

  @Override
  public String describe() {
    return root.toString();
  }

  /** The root directory's inode and the manifest's digest: a directory put in its place differs. */
  @Override
  public String identity() throws IOException {
    String directory = LocalIdentity.of(root);
    try (InputStream manifest = open(BackupLayout.MANIFEST)) {
      String digest = BlobDigest.ofContent(manifest.readAllBytes()).hex();
      return directory + ", manifest " + digest.substring(0, 16);
    }
  }
}
