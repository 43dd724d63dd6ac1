package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.source.SourceProblem;

/**
 * Where a backup's files live (a directory, a bucket prefix). Paths are relative to the backup root
 * and use {@code /}. The format logic in {@link BackupReader} sits on top, so every storage reads
 * backups the same way.
 */
public interface BackupStorage extends AutoCloseable {

  /**
   * Opens a file.
   *
   * @throws java.nio.file.NoSuchFileException when it does not exist
   */
  InputStream open(String path) throws IOException;

  boolean exists(String path) throws IOException;

  /** The names of the entries (files and directories) directly under {@code directory}, sorted. */
  List<String> list(String directory) throws IOException;

  /** The backup's blobs. */
  BlobSource blobSource();

  /** Where the backup is, for messages (no secrets). */
  String describe();

  /**
   * What the backup is now (see {@link org.mailrestore.source.MailSource#identity}).
   *
   * @throws IOException when its manifest is gone or cannot be read
   */
  String identity() throws IOException;

  /**
   * What of an account's source could not be presented as items (a storage that builds the backup
   * view from something else, such as a Maildir tree, reports the files it could not read here).
   * Complete once the account's items have been read; empty for backups in format v1.
   */
  default List<SourceProblem> problems(String accountId) {
    return List.of();
  }

  @Override
  default void close() throws IOException {}
}
