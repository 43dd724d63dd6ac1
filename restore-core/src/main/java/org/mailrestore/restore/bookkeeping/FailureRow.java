package org.mailrestore.restore.bookkeeping;

import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.restore.Phase;
import org.mailrestore.sql.Sql;

/**
 * A failure to record in {@code restore_failure}.
 *
 * @param sourceAccountId the account in the backup, or "" when the failure is not an account's
 * @param itemId the item in the backup, or 0 when the failure is not one item's
 * @param severity {@code ERROR}: something was not restored; {@code WARNING}: it was, repaired
 * @param reason a stable code (a {@link FailureReason})
 * @param location the backup file (and line) concerned, or ""
 * @param detail what went wrong, for a person
 */
public record FailureRow(
    String sourceAccountId,
    int itemId,
    String phase,
    Severity severity,
    String reason,
    String location,
    @Nullable String detail) {

  /** Whether something was lost, or restored after a repair (a rename, a new parent). */
  public enum Severity {
    ERROR,
    WARNING
  }

  /** The row of a failure, of the severity its reason has. */
  public static FailureRow of(
      Phase phase,
      FailureReason reason,
      String sourceAccountId,
      int itemId,
      String location,
      @Nullable String detail) {
    return new FailureRow(
        sourceAccountId,
        itemId,
        phase.name().toLowerCase(Locale.ROOT),
        reason.isWarning() ? Severity.WARNING : Severity.ERROR,
        reason.name(),
        location,
        detail);
  }

  public FailureRow {
    sourceAccountId = sourceAccountId == null ? "" : sourceAccountId;
    location = location == null ? "" : Sql.clip(location, 512);
    detail = detail == null ? "" : Sql.clip(detail, Sql.TEXT_CHARS);
  }
}
