package org.mailrestore.server.api;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import org.mailrestore.restore.BackupSource;
import org.mailrestore.restore.ConflictPolicy;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Selection;

/**
 * The body of {@code POST /api/v1/restores}: what to restore and how.
 *
 * @param accounts restore only these accounts (addresses or backup ids); empty: all
 * @param domains restore only accounts of these domains; empty: all
 * @param asOf the instant whose state to restore; absent: the latest
 * @param undeleteFrom also bring back what was deleted from this instant on
 * @param conflictPolicy for accounts that exist: skip, merge (default), replace, new-account
 * @param concurrentAccounts accounts restored at once; 0 or absent: the service's bound
 * @param clusterSize items per transaction; 0 or absent: the default (1000)
 */
public record RestoreRequestBody(
    @NotNull @Valid Source source,
    List<@Size(min = 1, max = 255) String> accounts,
    List<@Size(min = 1, max = 255) String> domains,
    Boolean skipSystemAccounts,
    Boolean skipAliases,
    Boolean skipLists,
    Boolean skipCos,
    Boolean skipProvisioning,
    Boolean provisioningOnly,
    Instant asOf,
    Instant undeleteFrom,
    Instant undeleteTo,
    @Pattern(regexp = "skip|merge|replace|new-account") String conflictPolicy,
    @Size(max = 64) String newAccountSuffix,
    @Min(0) @Max(1024) Integer concurrentAccounts,
    @Min(0) @Max(100_000) Integer clusterSize) {

  /**
   * Where the backup is. {@code local}: {@code path} on the service's machine (inside an allowed
   * root); {@code s3}: {@code bucket} and {@code prefix} through the configured {@code profile};
   * {@code maildir}: a tree of mailboxes at {@code path}, its accounts in {@code domain}.
   */
  public record Source(
      @NotNull @Pattern(regexp = "local|s3|maildir") String kind,
      @Size(max = 4096) String path,
      @Size(max = 64) String profile,
      @Size(max = 255) String bucket,
      @Size(max = 1024) String prefix,
      @Size(max = 255) String domain,
      @Pattern(regexp = "auto|maildir|plain") String layout) {}

  /** The body that asks for {@code request} (what the CLI sends). */
  public static RestoreRequestBody asking(RestoreRequest request) {
    Source source =
        switch (request.source()) {
          case BackupSource.Local(String path) ->
              new Source("local", path, null, null, null, null, null);
          case BackupSource.S3(String profile, String bucket, String prefix) ->
              new Source("s3", null, profile, bucket, prefix, null, null);
          case BackupSource.Maildir(String path, String domain, String layout) ->
              new Source("maildir", path, null, null, null, domain, layout);
        };
    Selection s = request.selection();
    return new RestoreRequestBody(
        source,
        List.copyOf(s.accounts()),
        List.copyOf(s.domains()),
        s.skipSystemAccounts(),
        s.skipAliases(),
        s.skipLists(),
        s.skipCos(),
        s.skipProvisioning(),
        s.provisioningOnly(),
        request.asOf(),
        request.undeleteFrom(),
        request.undeleteTo(),
        request.conflictPolicy().wireName(),
        request.newAccountSuffix(),
        request.concurrentAccounts(),
        request.clusterSize());
  }

  /**
   * The engine's request.
   *
   * @throws FieldErrors when fields that depend on each other do not fit
   */
  public RestoreRequest toRequest() {
    FieldErrors errors = new FieldErrors();
    BackupSource backup = null;
    switch (source.kind()) {
      case "local" -> {
        if (blank(source.path())) {
          errors.add("source.path", "is required for a local source");
        } else {
          backup = new BackupSource.Local(source.path());
        }
      }
      case "maildir" -> {
        if (blank(source.path())) {
          errors.add("source.path", "is required for a Maildir source");
        }
        if (blank(source.domain())) {
          errors.add("source.domain", "is required for a Maildir source");
        }
        if (errors.isEmpty()) {
          try {
            backup = new BackupSource.Maildir(source.path(), source.domain(), source.layout());
          } catch (IllegalArgumentException e) {
            errors.add("source.domain", e.getMessage());
          }
        }
      }
      default -> {
        if (blank(source.bucket())) {
          errors.add("source.bucket", "is required for an S3 source");
        }
        if (errors.isEmpty()) {
          backup =
              new BackupSource.S3(
                  blank(source.profile()) ? "default" : source.profile(),
                  source.bucket(),
                  source.prefix() == null ? "" : source.prefix());
        }
      }
    }
    if (undeleteTo != null && undeleteFrom == null) {
      errors.add("undeleteTo", "needs undeleteFrom");
    }
    if (undeleteFrom != null && undeleteTo != null && !undeleteFrom.isBefore(undeleteTo)) {
      errors.add("undeleteTo", "must be after undeleteFrom");
    }
    if (asOf != null && undeleteFrom != null && undeleteFrom.isAfter(asOf)) {
      errors.add("undeleteFrom", "must not be after asOf");
    }
    if (on(provisioningOnly) && on(skipProvisioning)) {
      errors.add("provisioningOnly", "contradicts skipProvisioning");
    }
    errors.throwIfAny();
    Selection selection =
        new Selection(
            new LinkedHashSet<>(domains == null ? List.of() : domains),
            new LinkedHashSet<>(accounts == null ? List.of() : accounts),
            on(skipSystemAccounts),
            on(skipAliases),
            on(skipLists),
            on(skipCos),
            on(skipProvisioning),
            on(provisioningOnly));
    return new RestoreRequest(
        backup,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy == null ? ConflictPolicy.MERGE : ConflictPolicy.parse(conflictPolicy),
        newAccountSuffix,
        concurrentAccounts == null ? 0 : concurrentAccounts,
        clusterSize == null ? 0 : clusterSize,
        null);
  }

  private static boolean on(Boolean flag) {
    return Boolean.TRUE.equals(flag);
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
