package org.mailrestore.server;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.notify.NotifySettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The service's settings, under {@code mailrestore.*} (application.yaml, environment variables such
 * as {@code MAILRESTORE_VOLUME_LOCATION}, or {@code --mailrestore.volume.location=...}). Secrets
 * (S3 keys, passwords, token digests) come from here, never from requests.
 *
 * @param dataDir where the service keeps its own files: the embedded database, the default volume,
 *     a generated admin token
 * @param instanceId this instance's name in leases; default: host name and a random suffix
 * @param leaseSeconds how long an instance's claims outlive its last heartbeat
 * @param shutdownGrace how long a shutdown waits for clusters in flight
 * @param assistInterval how often the instance looks for operations to resume or help with
 * @param volume the mailstore's volume, where restores write when no target is listed
 * @param targets where restores write instead of the mailstore: the targets the CLI names with
 *     {@code --target} and {@code --provision} (an IMAP server, a DAV server, a directory),
 *     composed when several; their secrets from the environment, as for the CLI
 * @param api limits of the REST API
 * @param limits what a restore reads at most
 */
@Validated
@ConfigurationProperties("mailrestore")
public record ServerSettings(
    @NotNull Path dataDir,
    String instanceId,
    @Min(3) int leaseSeconds,
    @NotNull Duration shutdownGrace,
    @NotNull Duration assistInterval,
    @Valid @NotNull ConcurrencySettings concurrency,
    @Valid @NotNull VolumeSettings volume,
    List<@Valid TargetSettings> targets,
    Map<String, @Valid S3ProfileSettings> s3Profiles,
    @Valid @NotNull SourceSettings sources,
    @Valid @NotNull SecuritySettings security,
    NotifySettings notifications,
    @Valid ApiSettings api,
    @Valid LimitsSettings limits) {

  public ServerSettings {
    s3Profiles = s3Profiles == null ? Map.of() : Map.copyOf(s3Profiles);
    targets = targets == null ? List.of() : List.copyOf(targets);
    api = api == null ? new ApiSettings(null) : api;
    limits = limits == null ? new LimitsSettings(null) : limits;
  }

  /** Whether a request may ask for the restored accounts' owners to be mailed (an SMTP server). */
  public boolean mailsOwners() {
    return notifications != null && notifications.mailsOwners();
  }

  /**
   * What a restore reads at most.
   *
   * @param maxItemSize the largest item, once decompressed, whatever holds it (a blob, a message of
   *     an mbox or a Maildir, an archive's entry): a larger one fails alone as ITEM_TOO_LARGE,
   *     before memory or disk hold more of it (default 4GB)
   */
  public record LimitsSettings(DataSize maxItemSize) {
    public LimitsSettings {
      maxItemSize =
          maxItemSize == null
              ? DataSize.ofBytes(StorageLimits.DEFAULT_MAX_ITEM_BYTES)
              : maxItemSize;
      if (maxItemSize.toBytes() < 1) {
        throw new IllegalArgumentException("mailrestore.limits.max-item-size must be positive");
      }
    }

    /** The storage bounds of a restore with this largest item. */
    public StorageLimits storage() {
      return StorageLimits.DEFAULT.withMaxItemBytes(maxItemSize.toBytes());
    }
  }

  /**
   * Limits of the REST API.
   *
   * @param maxBodySize the largest request body read; larger ones are answered 413 (default 8MB:
   *     the largest valid restore request, 10,000 accounts and domains of 255 characters with 1,000
   *     folders and 10,000 items, is about 6.5MB; RequestBoundsTest keeps it within)
   */
  public record ApiSettings(DataSize maxBodySize) {

    public static final DataSize DEFAULT_MAX_BODY_SIZE = DataSize.ofMegabytes(8);

    public ApiSettings {
      maxBodySize = maxBodySize == null ? DEFAULT_MAX_BODY_SIZE : maxBodySize;
      if (maxBodySize.toBytes() < 1024) {
        throw new IllegalArgumentException("mailrestore.api.max-body-size must be at least 1KB");
      }
    }
  }

  /** How much a restore does at once on this instance; 0 for the machine's default. */
  public record ConcurrencySettings(
      @Min(0) int accounts, @Min(0) int clustersPerAccount, @Min(0) int blobTransfers) {}

  /**
   * The volume restored blobs go to.
   *
   * @param kind local, packed-local, s3 or packed-s3
   * @param location a directory, or s3://bucket/prefix; default: {@code <data-dir>/volume}
   */
  public record VolumeSettings(
      @NotBlank String name,
      @NotBlank String kind,
      String location,
      @NotBlank String compression,
      @Min(0) long compressionThreshold,
      @Min(0) int packThreshold,
      String s3Profile) {}

  /**
   * A target restores write to, as the CLI's flags name it: {@code kind: imap}, {@code location:
   * imap://mail.example.org:143}, {@code options: {starttls: required}} is {@code --target
   * imap://mail.example.org:143 --imap-starttls required}.
   */
  public record TargetSettings(
      @NotBlank String kind, String location, Map<String, String> options) {
    public TargetSettings {
      options = options == null ? Map.of() : Map.copyOf(options);
    }
  }

  /** An S3 endpoint and its credentials (from configuration or the environment only). */
  public record S3ProfileSettings(
      String endpoint, String region, String accessKey, String secretKey) {}

  /**
   * Where local backups (and Maildir trees) may be read from: a requested path must resolve, after
   * symbolic links and {@code ..}, inside one of these.
   */
  public record SourceSettings(List<Path> allowedRoots) {
    public SourceSettings {
      allowedRoots = allowedRoots == null ? List.of() : List.copyOf(allowedRoots);
    }
  }

  /**
   * Who may call the API. Users log in with HTTP basic auth; passwords are stored encoded ({@code
   * {bcrypt}...}). API tokens are sent as {@code Authorization: Bearer <token>}; only their SHA-256
   * is configured. Roles: {@code viewer} reads, {@code admin} also starts, cancels and resumes.
   */
  public record SecuritySettings(List<@Valid User> users, List<@Valid Token> tokens) {
    public SecuritySettings {
      users = users == null ? List.of() : List.copyOf(users);
      tokens = tokens == null ? List.of() : List.copyOf(tokens);
    }

    public record User(@NotBlank String name, @NotBlank String password, @NotNull Role role) {}

    public record Token(@NotBlank String name, @NotBlank String sha256, @NotNull Role role) {}

    /** What a caller may do. */
    public enum Role {
      VIEWER,
      ADMIN
    }
  }
}
