package org.mailrestore.restore;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.source.SourceSpec;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * A restore request as a client sends it (the body of {@code POST /api/v1/restores}, what the CLI
 * sends): flat, every field optional but the source, each bounded where it is declared.
 *
 * @param source where to restore from: {@code kind} (see the installed kinds), {@code location} (an
 *     absolute path inside an allowed root, or {@code s3://bucket/prefix}), {@code profile} (the S3
 *     profile of an s3:// location) and the kind's {@code options}
 * @param accounts restore only these accounts (addresses or backup ids); empty: all
 * @param domains restore only accounts of these domains; empty: all
 * @param asOf the instant whose state to restore; absent: the latest
 * @param undeleteFrom also bring back what was deleted from this instant on
 * @param conflictPolicy for accounts that exist: skip, merge (default), replace, new-account
 * @param concurrentAccounts accounts restored at once; 0 or absent: the service's bound
 * @param clusterSize items per transaction; 0 or absent: the default (1000)
 * @param notifyService false: the service's configured recipients (webhook, mail) are not told of
 *     this operation's end; absent: they are
 * @param notifyOwners mail each restored account that its mail is back, through the service's SMTP
 *     server; absent: no
 */
public record RestoreRequestBody(
    @NotNull SourceSpec source,
    @Size(max = MAX_NAMES) @Nullable List<@NotNull @Size(min = 1, max = 255) String> accounts,
    @Size(max = MAX_NAMES) @Nullable List<@NotNull @Size(min = 1, max = 255) String> domains,
    @Nullable Boolean skipSystemAccounts,
    @Nullable Boolean skipAliases,
    @Nullable Boolean skipLists,
    @Nullable Boolean skipCos,
    @Nullable Boolean skipProvisioning,
    @Nullable Boolean provisioningOnly,
    @JsonDeserialize(using = IsoInstant.class) @Nullable Instant asOf,
    @JsonDeserialize(using = IsoInstant.class) @Nullable Instant undeleteFrom,
    @JsonDeserialize(using = IsoInstant.class) @Nullable Instant undeleteTo,
    @Pattern(regexp = "skip|merge|replace|new-account") @Nullable String conflictPolicy,
    @Size(max = 64) @Nullable String newAccountSuffix,
    @Min(0) @Max(1024) @Nullable Integer concurrentAccounts,
    @Min(0) @Max(100_000) @Nullable Integer clusterSize,
    @Positive @Max(Pace.MAX_ITEMS_PER_SECOND) @Nullable Double maxItemsPerSecond,
    @Positive @Max(Pace.MAX_MB_PER_SECOND) @Nullable Double maxMbPerSecond,
    @Size(max = 255) @Nullable String into,
    @Size(max = 10_000) @Nullable List<@NotNull @Positive Integer> items,
    @Size(max = 1_000) @Nullable List<@NotNull @Size(min = 1, max = 1024) String> folders,
    @Nullable Boolean notifyService,
    @Nullable Boolean notifyOwners) {

  /** The most accounts or domains one request names (more: restore all, or by domain). */
  public static final int MAX_NAMES = 10_000;

  /**
   * The longest location and option value accepted: an S3 location's longest ({@code s3://}, a
   * bucket of 63 characters, a key of 1,024 bytes), which leaves a local path the rest of Linux's
   * 4,096 for the source's own names below it.
   */
  public static final int MAX_LOCATION = 1_100;

  private static final int MAX_SHORT = 255;
  private static final int MAX_OPTIONS = 32;

  /** The body that asks for {@code request} (what the CLI sends). */
  public static RestoreRequestBody asking(RestoreRequest request) {
    return asking(request, Pace.UNLIMITED);
  }

  /** The body that asks for {@code request} at {@code pace}. */
  public static RestoreRequestBody asking(RestoreRequest request, Pace pace) {
    Selection s = request.selection();
    return new RestoreRequestBody(
        request.source(),
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
        request.clusterSize(),
        pace.itemsPerSecond(),
        pace.megabytesPerSecond(),
        s.into(),
        List.copyOf(s.items()),
        List.copyOf(s.folders()),
        request.notice().service(),
        request.notice().owners());
  }

  /** How fast the restore may go: no bound where the body gives none. */
  public Pace pace() {
    return Pace.of(maxItemsPerSecond, maxMbPerSecond);
  }

  /**
   * The engine's request, its source checked against its kind.
   *
   * @throws FieldProblems.Invalid naming each field that is wrong, or that does not fit another
   */
  public RestoreRequest toRequest() {
    FieldProblems errors = new FieldProblems();
    SourceSpec checked = null;
    if (tooLong(source.location(), MAX_LOCATION)) {
      errors.add("source.location", "is longer than " + MAX_LOCATION + " characters");
    } else if (tooLong(source.profile(), MAX_SHORT)) {
      errors.add("source.profile", "is longer than " + MAX_SHORT + " characters");
    } else if (source.options().size() > MAX_OPTIONS) {
      errors.add("source.options", "holds more than " + MAX_OPTIONS + " options");
    } else if (source.options().entrySet().stream()
        .anyMatch(e -> tooLong(e.getKey(), MAX_SHORT) || tooLong(e.getValue(), MAX_LOCATION))) {
      errors.add("source.options", "has a name or a value that is too long");
    } else {
      try {
        checked = source.normalize();
      } catch (FieldProblems.Invalid e) {
        e.problems().forEach(p -> errors.add(p.field(), p.message()));
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
    if (into != null && selection.accounts().size() != 1) {
      errors.add("into", "restores one account: give exactly one in accounts");
    } else if (into != null && !into.strip().matches("[^@\\s]+@[^@\\s]+")) {
      errors.add("into", "is not an address (user@domain)");
    }
    errors.throwIfAny();
    selection =
        selection.withScope(
            into,
            new LinkedHashSet<>(items == null ? List.of() : items),
            new LinkedHashSet<>(folders == null ? List.of() : folders));
    return new RestoreRequest(
        java.util.Objects.requireNonNull(checked),
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy == null ? ConflictPolicy.MERGE : ConflictPolicy.parse(conflictPolicy),
        newAccountSuffix == null ? RestoreRequest.DEFAULT_SUFFIX : newAccountSuffix,
        concurrentAccounts == null ? 0 : concurrentAccounts,
        clusterSize == null ? 0 : clusterSize,
        List.of(),
        new Notice(!Boolean.FALSE.equals(notifyService), on(notifyOwners)));
  }

  private static boolean tooLong(String value, int max) {
    return value != null && value.length() > max;
  }

  private static boolean on(@Nullable Boolean flag) {
    return Boolean.TRUE.equals(flag);
  }
}
