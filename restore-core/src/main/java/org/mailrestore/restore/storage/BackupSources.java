package org.mailrestore.restore.storage;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.S3BackupStorage;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BoundedBlobSource;
import org.mailrestore.blob.LocalBlobSource;
import org.mailrestore.blob.MeteredBlobSource;
import org.mailrestore.blob.RetryingBlobSource;
import org.mailrestore.blob.s3.S3BlobSource;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.maildir.MaildirBackupStorage;
import org.mailrestore.maildir.MaildirLayout;
import org.mailrestore.restore.BackupOpener;
import org.mailrestore.restore.BackupSource;

/**
 * Opens the backups requests name: local directories, and buckets through configured S3 profiles. A
 * backup's blobs are read through the decorators every source gets: metered, retried, bounded.
 */
public final class BackupSources implements BackupOpener {

  private final S3Profiles profiles;
  private final StorageLimits limits;
  private final MeterRegistry registry;

  public BackupSources(S3Profiles profiles, StorageLimits limits, MeterRegistry registry) {
    this.profiles = profiles;
    this.limits = limits;
    this.registry = registry;
  }

  @Override
  public BackupReader open(BackupSource source) throws IOException {
    return switch (source) {
      case BackupSource.Local(String path) -> {
        Path dir = Path.of(path);
        if (!Files.isDirectory(dir)) {
          throw new IOException("backup directory " + dir.toAbsolutePath() + " does not exist");
        }
        yield BackupReader.open(
            new LocalBackupStorage(
                dir, decorate(new LocalBlobSource(dir.resolve(BackupLayout.BLOBS)), "local")));
      }
      case BackupSource.Maildir(String path, String domain, String layout) ->
          BackupReader.open(
              new MaildirBackupStorage(
                  Path.of(path),
                  domain,
                  MaildirLayout.parse(layout),
                  blobs -> decorate(blobs, "maildir")));
      case BackupSource.S3(String profile, String bucket, String prefix) -> {
        if (!profiles.has(profile)) {
          throw new IOException(
              "no S3 profile '"
                  + profile
                  + "' is configured, so s3://"
                  + bucket
                  + "/"
                  + prefix
                  + " cannot be read");
        }
        var client = profiles.client(profile);
        S3Location root = new S3Location(bucket, prefix);
        Counter metadataRetries =
            Counter.builder("mailrestore.metadata.retries")
                .description("Backup metadata reads retried after a passing failure")
                .tag("kind", "s3")
                .register(registry);
        yield BackupReader.open(
            new S3BackupStorage(
                client,
                root,
                decorate(new S3BlobSource(client, root.resolve(BackupLayout.BLOBS + "/")), "s3"),
                metadataRetries::increment));
      }
    };
  }

  private BlobSource decorate(BlobSource source, String kind) {
    Counter retries =
        Counter.builder("mailrestore.blob.retries")
            .description("Blob reads retried after a passing failure (reset, timeout, throttling)")
            .tag("kind", kind)
            .register(registry);
    return new MeteredBlobSource(
        new RetryingBlobSource(
            new BoundedBlobSource(source, limits.sourceRequests()),
            limits.retries(),
            (digest, cause) -> retries.increment()),
        registry,
        kind);
  }
}
