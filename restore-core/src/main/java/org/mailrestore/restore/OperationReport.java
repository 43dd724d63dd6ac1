package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mailrestore.restore.bookkeeping.Bookkeeping;

/**
 * What an operation did, account by account, as administrators know it from an "operation ended"
 * mail: restored, skipped and unrestored counts, and each unrestored item with its reason. The
 * schema is in docs/service.md ("The report of an operation"); {@code version} changes with it.
 *
 * @param general what failed outside any account (provisioning of domains, lists, shares)
 */
public record OperationReport(
    int version, OperationSummary operation, List<AccountReport> accounts, List<Problem> general) {

  /** The schema's version. */
  public static final int VERSION = 1;

  /**
   * One account.
   *
   * @param unrestored items (or parts of the account) not restored, with why
   * @param repaired items restored after a repair (a folder renamed or moved), with what was done
   */
  public record AccountReport(
      String account,
      String sourceAccountId,
      AccountState state,
      long restored,
      long skipped,
      long failed,
      long bytesRestored,
      List<Problem> unrestored,
      List<Problem> repaired) {}

  /** One failure or repair: the item's id in the source (0: not an item), why, and where. */
  public record Problem(int itemId, String phase, String reason, String location, String detail) {}

  /** The operation's report as its tables hold it now; empty when there is no such operation. */
  public static Optional<OperationReport> of(Bookkeeping books, String operationId)
      throws SQLException {
    Optional<OperationSummary> summary = books.operations().find(operationId);
    if (summary.isEmpty()) {
      return Optional.empty();
    }
    Map<String, List<Problem>> errors = new LinkedHashMap<>();
    Map<String, List<Problem>> warnings = new LinkedHashMap<>();
    List<Problem> general = new ArrayList<>();
    int page = 1000;
    for (int offset = 0; ; offset += page) {
      List<FailureRecord> rows = books.failures().list(operationId, offset, page);
      for (FailureRecord f : rows) {
        Problem p = new Problem(f.itemId(), f.phase(), f.reason(), f.location(), f.detail());
        if (f.sourceAccountId() == null || f.sourceAccountId().isEmpty()) {
          general.add(p);
        } else {
          (f.severity().equalsIgnoreCase("warning") ? warnings : errors)
              .computeIfAbsent(f.sourceAccountId(), k -> new ArrayList<>())
              .add(p);
        }
      }
      if (rows.size() < page) {
        break;
      }
    }
    List<AccountReport> accounts = new ArrayList<>();
    for (AccountProgress a : books.accounts().list(operationId)) {
      accounts.add(
          new AccountReport(
              a.accountName(),
              a.sourceAccountId(),
              a.state(),
              a.itemsRestored(),
              a.itemsSkipped(),
              a.itemsFailed(),
              a.bytesRestored(),
              errors.getOrDefault(a.sourceAccountId(), List.of()),
              warnings.getOrDefault(a.sourceAccountId(), List.of())));
      errors.remove(a.sourceAccountId());
      warnings.remove(a.sourceAccountId());
    }
    // Failures of accounts that never got a row (unreadable in the source) are the operation's.
    errors.values().forEach(general::addAll);
    warnings.values().forEach(general::addAll);
    return Optional.of(new OperationReport(VERSION, summary.get(), accounts, general));
  }
}
