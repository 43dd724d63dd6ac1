package org.mailrestore.restore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;

/** Opens backups in local directories. S3 sources need an opener that knows the S3 profiles. */
public final class LocalBackupOpener implements BackupOpener {

  @Override
  public BackupReader open(BackupSource source) throws IOException {
    return switch (source) {
      case BackupSource.Local(String path) -> {
        Path dir = Path.of(path);
        if (!Files.isDirectory(dir)) {
          throw new IOException("backup directory " + dir.toAbsolutePath() + " does not exist");
        }
        yield BackupReader.open(new LocalBackupStorage(dir));
      }
      case BackupSource.S3 s3 ->
          throw new IOException(
              "this service has no S3 profiles configured, so it cannot read "
                  + RestoreEngine.describe(s3));
    };
  }
}
