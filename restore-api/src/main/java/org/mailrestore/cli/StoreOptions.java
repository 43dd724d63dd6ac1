package org.mailrestore.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.storage.VolumeSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Where a local command finds the mailstore: the database and the blob volume. */
final class StoreOptions {

  @Mixin DatabaseOptions database;

  @Option(
      names = "--volume",
      required = true,
      description = "Where blobs are restored to: a directory, or s3://bucket/prefix")
  String volume;

  @Option(
      names = "--volume-packed",
      description = "Append small blobs to pack files (or objects): far fewer files or requests")
  boolean packed;

  @Option(
      names = "--volume-s3-profile",
      defaultValue = "default",
      description =
          "The S3 profile of an s3:// volume (MAILRESTORE_S3_<PROFILE>_*; default: ${DEFAULT-VALUE})")
  String volumeProfile;

  @Option(
      names = "--volume-name",
      defaultValue = "local",
      description = "The volume's name in the mailstore (default: ${DEFAULT-VALUE})")
  String volumeName;

  @Option(
      names = "--volume-compression",
      defaultValue = "none",
      description = "Compress blobs at rest: none, gzip or zstd (default: ${DEFAULT-VALUE})")
  String compression;

  @Option(
      names = "--volume-compression-threshold",
      defaultValue = "4096",
      description = "Smallest blob, in bytes, that is compressed (default: ${DEFAULT-VALUE})")
  long threshold;

  Mailstore open() throws IOException, SQLException {
    return open(Concurrency.forMachine());
  }

  Mailstore open(Concurrency concurrency) throws IOException, SQLException {
    return new Mailstore(
        database.jdbcUrl,
        database.user,
        database.password(),
        volumeSpec(),
        concurrency,
        new SimpleMeterRegistry());
  }

  VolumeSpec volumeSpec() {
    boolean s3 = volume.startsWith("s3://");
    VolumeSpec.Kind kind =
        s3
            ? (packed ? VolumeSpec.Kind.PACKED_S3 : VolumeSpec.Kind.S3)
            : (packed ? VolumeSpec.Kind.PACKED_LOCAL : VolumeSpec.Kind.LOCAL);
    String location = s3 ? volume : Path.of(volume).toAbsolutePath().normalize().toString();
    return new VolumeSpec(
        volumeName,
        kind,
        location,
        BlobCompression.parse(compression),
        threshold,
        0,
        s3 ? volumeProfile : null);
  }
}
