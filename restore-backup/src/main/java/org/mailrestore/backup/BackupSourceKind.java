package org.mailrestore.backup;

import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.mailrestore.blob.LocalBlobSource;
import org.mailrestore.blob.s3.S3BlobSource;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;

/** Backups in our own format (docs/backup-format.md), in a directory or under an S3 prefix. */
public final class BackupSourceKind implements SourceKind {

  public static final String NAME = "backup";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A backup in mailrestore's format: a directory, or s3://bucket/prefix";
  }

  @Override
  public Location location() {
    return Location.DIRECTORY;
  }

  @Override
  public boolean readsS3() {
    return true;
  }

  @Override
  public String describe(SourceSpec spec) {
    return spec.isS3() ? spec.location() + " (profile " + spec.profile() + ")" : spec.location();
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    if (!spec.isS3()) {
      Path dir = Path.of(spec.location());
      if (!Files.isDirectory(dir)) {
        throw new IOException("backup directory " + dir.toAbsolutePath() + " does not exist");
      }
      context.fence().names(dir); // refused here when the way to it leads outside
      return BackupReader.open(
          new LocalBackupStorage(
              dir,
              context.decorate(
                  new LocalBlobSource(dir.resolve(BackupLayout.BLOBS), context.fence()), "local"),
              context.fence()));
    }
    var client = context.s3().client(spec.profile());
    S3Location root = S3Location.parse(spec.location());
    Counter metadataRetries =
        Counter.builder("mailrestore.metadata.retries")
            .description("Backup metadata reads retried after a passing failure")
            .tag("kind", "s3")
            .register(context.registry());
    return BackupReader.open(
        new S3BackupStorage(
            client,
            root,
            context.decorate(
                new S3BlobSource(client, root.resolve(BackupLayout.BLOBS + "/")), "s3"),
            metadataRetries::increment));
  }

  /** A local backup directory as a source. */
  public static SourceSpec local(Path dir) {
    return SourceSpec.of(NAME, dir.toAbsolutePath().normalize().toString());
  }
}
