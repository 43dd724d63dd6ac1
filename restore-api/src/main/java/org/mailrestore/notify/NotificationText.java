package org.mailrestore.notify;

import java.util.Locale;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationSummary;

/** The words of a notification: a subject and a plain-text summary of the report. */
final class NotificationText {

  /** Unrestored items listed in a mail; the rest are in the report. */
  private static final int LISTED = 50;

  private NotificationText() {}

  static String subject(OperationReport r) {
    OperationSummary.Counts c = r.operation().counts();
    return String.format(
        Locale.ROOT,
        "mailrestore: operation %s ended %s (%,d accounts, %,d items restored, %,d errors)",
        r.operation().id(),
        r.operation().state(),
        c.accounts(),
        c.itemsRestored(),
        c.errors());
  }

  static String subjectProvisioned(OperationSummary s) {
    return "mailrestore: operation " + s.id() + ": accounts provisioned, mail follows";
  }

  static String ownerSubject() {
    return "Your mailbox has been restored";
  }

  /** For the account's owner: what came back, and that the rest is known to the administrator. */
  static String ownerBody(OperationReport r, OperationReport.AccountReport a) {
    StringBuilder b = new StringBuilder();
    b.append("Your mailbox ").append(a.account()).append(" has been restored from a backup");
    if (r.operation().request() != null && r.operation().request().asOf() != null) {
      b.append(" as it was at ").append(r.operation().request().asOf());
    }
    b.append(".\n\n");
    b.append(String.format(Locale.ROOT, "%,d items were restored.%n", a.restored()));
    if (a.failed() > 0) {
      b.append(
          String.format(
              Locale.ROOT,
              "%,d items could not be restored; your administrator has the list (operation %s).%n",
              a.failed(),
              r.operation().id()));
    }
    return b.toString();
  }

  static String body(OperationReport r) {
    OperationSummary s = r.operation();
    OperationSummary.Counts c = s.counts();
    StringBuilder b = new StringBuilder();
    b.append("Operation ").append(s.id()).append(" ended ").append(s.state()).append(".\n");
    b.append("Source: ").append(s.source()).append('\n');
    b.append("Started ").append(s.startedAt()).append(", ended ").append(s.finishedAt());
    b.append('\n');
    if (s.message() != null) {
      b.append("Message: ").append(s.message()).append('\n');
    }
    b.append(
        String.format(
            Locale.ROOT,
            "Accounts: %,d (%,d failed). Items: %,d restored, %,d skipped, %,d failed.%n%n",
            c.accounts(),
            c.accountsFailed(),
            c.itemsRestored(),
            c.itemsSkipped(),
            c.itemsFailed()));
    int listed = 0;
    for (OperationReport.AccountReport a : r.accounts()) {
      b.append(
          String.format(
              Locale.ROOT,
              "%s  %s  %,d restored, %,d skipped, %,d unrestored%n",
              a.account(),
              a.state(),
              a.restored(),
              a.skipped(),
              a.unrestored().size()));
      for (OperationReport.Problem p : a.unrestored()) {
        if (listed++ < LISTED) {
          b.append("    item ").append(p.itemId()).append(' ').append(p.reason());
          b.append(": ").append(p.detail()).append('\n');
        }
      }
    }
    for (OperationReport.Problem p : r.general()) {
      if (listed++ < LISTED) {
        b.append("(operation) ").append(p.reason()).append(": ").append(p.detail()).append('\n');
      }
    }
    if (listed > LISTED) {
      b.append("... and ").append(listed - LISTED).append(" more: `mailrestore restore report ");
      b.append(s.id()).append("`\n");
    }
    return b.toString();
  }
}
