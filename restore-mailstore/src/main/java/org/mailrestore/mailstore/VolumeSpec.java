package org.mailrestore.mailstore;

import java.util.Locale;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.pack.PackedBlobVolume;
import org.mailrestore.mailstore.VolumeStore.VolumeRow;

/**
 * A volume to restore blobs to.
 *
 * @param location a directory for local kinds, {@code s3://bucket/prefix} for S3 kinds
 * @param compressionThreshold the smallest blob compressed
 * @param packThreshold for packed kinds, the largest blob appended to a pack
 * @param s3Profile for S3 kinds, the configured profile
 */
public record VolumeSpec(
    String name,
    Kind kind,
    String location,
    BlobCompression compression,
    long compressionThreshold,
    int packThreshold,
    String s3Profile) {

  /** How a volume keeps blobs. */
  public enum Kind {
    /** One file per blob. */
    LOCAL,
    /** One object per blob. */
    S3,
    /** Small blobs in pack files, larger ones one file each. */
    PACKED_LOCAL,
    /** Small blobs in pack objects, larger ones one object each. */
    PACKED_S3;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean isS3() {
      return this == S3 || this == PACKED_S3;
    }

    public static Kind parse(String text) {
      for (Kind k : values()) {
        if (k.wireName().equalsIgnoreCase(text.trim())) {
          return k;
        }
      }
      throw new IllegalArgumentException(
          "unknown volume kind '" + text + "' (use local, s3, packed-local or packed-s3)");
    }
  }

  public VolumeSpec {
    if (kind.isS3() && (s3Profile == null || !location.startsWith("s3://"))) {
      throw new IllegalArgumentException(
          "an S3 volume needs an s3://bucket/prefix location and an S3 profile");
    }
    if (packThreshold <= 0) {
      packThreshold = PackedBlobVolume.DEFAULT_PACK_THRESHOLD;
    }
  }

  /** A local volume of one file per blob, uncompressed. */
  public static VolumeSpec local(String name, String directory) {
    return new VolumeSpec(name, Kind.LOCAL, directory, BlobCompression.NONE, 0, 0, null);
  }

  VolumeRow toRow() {
    return new VolumeRow(
        0,
        name,
        kind.wireName(),
        location,
        compression.name().toLowerCase(Locale.ROOT),
        compressionThreshold,
        packedUpTo(),
        s3Profile);
  }

  /** The largest blob appended to a pack; 0 for a kind without packs. */
  public int packedUpTo() {
    return kind == Kind.PACKED_LOCAL || kind == Kind.PACKED_S3 ? packThreshold : 0;
  }

  static VolumeSpec fromRow(VolumeRow row) {
    return new VolumeSpec(
        row.name(),
        Kind.parse(row.kind()),
        row.location(),
        BlobCompression.parse(row.compression()),
        row.compressionThreshold(),
        (int) row.packThreshold(),
        row.s3Profile());
  }
}
