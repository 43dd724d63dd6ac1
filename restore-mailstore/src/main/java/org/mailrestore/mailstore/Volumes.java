package org.mailrestore.mailstore;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobStacks;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.LocalBlobVolume;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.pack.LocalPackStore;
import org.mailrestore.blob.pack.PackedBlobVolume;
import org.mailrestore.blob.s3.S3BlobVolume;
import org.mailrestore.blob.s3.S3Buckets;
import org.mailrestore.blob.s3.S3Location;
import org.mailrestore.blob.s3.S3PackStore;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mailstore.VolumeStore.VolumeRow;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds volumes from their specs, with the decorators every volume gets: metered, bounded. */
public final class Volumes {

  private final S3Profiles profiles;
  private final StorageLimits limits;
  private final MeterRegistry registry;

  public Volumes(S3Profiles profiles, StorageLimits limits, MeterRegistry registry) {
    this.profiles = profiles;
    this.limits = limits;
    this.registry = registry;
  }

  /** Every volume the mailstore knows, by id: what {@code verify} reads blobs back from. */
  public Map<Integer, BlobVolume> openAll(DataSource dataSource) throws SQLException, IOException {
    Map<Integer, BlobVolume> volumes = new HashMap<>();
    for (VolumeRow row : new VolumeStore(dataSource).all()) {
      VolumeSpec spec = VolumeSpec.fromRow(row);
      if (!spec.kind().isS3() || profiles.has(spec.s3Profile())) {
        volumes.put(row.id(), open(spec));
      }
    }
    return volumes;
  }

  /** The volume a spec describes. */
  public BlobVolume open(VolumeSpec spec) throws IOException {
    BlobVolume volume =
        switch (spec.kind()) {
          case LOCAL ->
              new LocalBlobVolume(
                  Path.of(spec.location()), spec.compression(), spec.compressionThreshold());
          case PACKED_LOCAL -> {
            Path root = Path.of(spec.location());
            yield new PackedBlobVolume(
                new LocalPackStore(root.resolve("packs"), LocalPackStore.DEFAULT_MAX_PACK_SIZE),
                new LocalBlobVolume(
                    root.resolve("blobs"), spec.compression(), spec.compressionThreshold()),
                spec.packThreshold(),
                spec.compression(),
                spec.compressionThreshold());
          }
          case S3 -> s3Volume(spec, location(spec));
          case PACKED_S3 -> {
            S3Location root = location(spec);
            yield new PackedBlobVolume(
                new S3PackStore(
                    client(spec), root.resolve("packs/"), S3PackStore.DEFAULT_MAX_PACK_SIZE),
                s3Volume(spec, root.resolve("blobs/")),
                spec.packThreshold(),
                spec.compression(),
                spec.compressionThreshold());
          }
        };
    return BlobStacks.volume(volume, spec.kind().wireName(), limits, registry);
  }

  /** Creates an S3 volume's bucket when missing (a volume restores write to); no-op otherwise. */
  public void ensureWritable(VolumeSpec spec) throws IOException {
    if (spec.kind().isS3()) {
      S3Buckets.ensure(client(spec), location(spec).bucket());
    }
  }

  private S3Client client(VolumeSpec spec) {
    return profiles.client(spec.s3Profile());
  }

  private S3BlobVolume s3Volume(VolumeSpec spec, S3Location location) {
    return new S3BlobVolume(
        client(spec),
        location,
        spec.compression(),
        spec.compressionThreshold(),
        S3BlobVolume.DEFAULT_PART_SIZE,
        4);
  }

  /** Parses {@code s3://bucket/prefix}. */
  public static S3Location location(VolumeSpec spec) {
    return S3Location.parse(spec.location());
  }
}
