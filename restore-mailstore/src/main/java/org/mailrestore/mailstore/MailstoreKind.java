package org.mailrestore.mailstore;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;

/**
 * Our own Zimbra-style mailstore: the bookkeeping's MariaDB database holds its rows, a blob volume
 * (a directory or an S3 prefix, one file per blob or packed) holds its message bodies.
 */
public final class MailstoreKind implements TargetKind {

  public static final String NAME = "mailstore";
  public static final String PACKED = "packed";
  public static final String VOLUME_NAME = "name";
  public static final String COMPRESSION = "compression";
  public static final String COMPRESSION_THRESHOLD = "compression-threshold";
  public static final String PACK_THRESHOLD = "pack-threshold";
  public static final String S3_PROFILE = "s3-profile";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "the MariaDB mailstore (--jdbc-url) with a blob volume (--volume)";
  }

  @Override
  public KindOption location() {
    return KindOption.optional(
            "volume", "Where blobs are restored to: a directory, or s3://bucket/prefix")
        .withFlag("--volume");
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.choice(
                PACKED,
                "Append small blobs to pack files (or objects): far fewer files or requests",
                "false",
                List.of("true", "false"))
            .withFlag("--volume-packed"),
        KindOption.optional(VOLUME_NAME, "The volume's name in the mailstore")
            .withFlag("--volume-name")
            .withDefault("local"),
        KindOption.choice(
                COMPRESSION, "Compress blobs at rest", "none", List.of("none", "gzip", "zstd"))
            .withFlag("--volume-compression"),
        KindOption.optional(COMPRESSION_THRESHOLD, "Smallest blob, in bytes, that is compressed")
            .withFlag("--volume-compression-threshold")
            .withDefault("4096"),
        KindOption.optional(
                PACK_THRESHOLD, "Largest blob, in bytes, appended to a pack (0: 64 KiB)")
            .withFlag("--volume-pack-threshold")
            .withDefault("0"),
        KindOption.optional(S3_PROFILE, "The S3 profile of an s3:// volume")
            .withFlag("--volume-s3-profile")
            .withDefault("default"));
  }

  @Override
  public void prepare(DataSource bookkeeping) {
    MailstoreSchema.migrate(bookkeeping);
  }

  @Override
  public void check(TargetSpec spec, FieldProblems problems) {
    for (String number : List.of(COMPRESSION_THRESHOLD, PACK_THRESHOLD)) {
      try {
        if (Long.parseLong(spec.option(number)) < 0) {
          problems.add("target.options." + number, "must not be negative");
        }
      } catch (NumberFormatException e) {
        problems.add("target.options." + number, "must be a number of bytes");
      }
    }
    if (spec.location() != null && spec.location().startsWith("s3://")) {
      try {
        org.mailrestore.blob.s3.S3Location.parse(spec.location());
      } catch (IllegalArgumentException e) {
        problems.add("target.location", e.getMessage());
      }
    }
  }

  @Override
  public String describe(TargetSpec spec) {
    return spec.location() == null ? "mailstore" : "mailstore, volume " + spec.location();
  }

  @Override
  public MailTarget open(TargetSpec spec, TargetContext context) throws SQLException, IOException {
    return MailstoreTarget.open(spec.location() == null ? null : volumeSpec(spec), context);
  }

  /** The volume a target spec describes. */
  public static VolumeSpec volumeSpec(TargetSpec spec) {
    String location = spec.location();
    boolean s3 = location.startsWith("s3://");
    boolean packed = Boolean.parseBoolean(spec.option(PACKED));
    VolumeSpec.Kind kind =
        s3
            ? (packed ? VolumeSpec.Kind.PACKED_S3 : VolumeSpec.Kind.S3)
            : (packed ? VolumeSpec.Kind.PACKED_LOCAL : VolumeSpec.Kind.LOCAL);
    return new VolumeSpec(
        spec.option(VOLUME_NAME),
        kind,
        s3 ? location : Path.of(location).toAbsolutePath().normalize().toString(),
        BlobCompression.parse(spec.option(COMPRESSION)),
        Long.parseLong(spec.option(COMPRESSION_THRESHOLD)),
        Integer.parseInt(spec.option(PACK_THRESHOLD)),
        s3 ? spec.option(S3_PROFILE) : null);
  }

  /** The target spec of a volume. */
  public static TargetSpec of(VolumeSpec volume) {
    boolean packed =
        volume.kind() == VolumeSpec.Kind.PACKED_LOCAL || volume.kind() == VolumeSpec.Kind.PACKED_S3;
    return TargetSpec.of(
        NAME,
        volume.location(),
        Map.of(
            PACKED,
            String.valueOf(packed),
            VOLUME_NAME,
            volume.name(),
            COMPRESSION,
            volume.compression().name().toLowerCase(java.util.Locale.ROOT),
            COMPRESSION_THRESHOLD,
            String.valueOf(volume.compressionThreshold()),
            PACK_THRESHOLD,
            String.valueOf(packed ? volume.packThreshold() : 0),
            S3_PROFILE,
            volume.s3Profile() == null ? "default" : volume.s3Profile()));
  }

  /** A local volume of one file per blob, uncompressed, named {@code local}. */
  public static TargetSpec local(Path volume) {
    return of(VolumeSpec.local("local", volume.toAbsolutePath().normalize().toString()));
  }
}
