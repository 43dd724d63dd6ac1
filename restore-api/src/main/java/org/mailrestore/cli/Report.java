package org.mailrestore.cli;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.OperationView;
import org.mailrestore.verify.VerifyReport;

/** Human-readable summaries for the terminal. */
final class Report {

  private Report() {}

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  static String seconds(Long millis) {
    return millis == null ? "-" : String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
  }

  static String rate(long items, Long millis) {
    if (millis == null || millis <= 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "%,.0f items/s", items * 1000.0 / millis);
  }

  static void operation(PrintStream out, OperationView v) {
    OperationSummary.Counts c = v.counts();
    out.printf("  operation   %s  %s%n", v.id(), v.state());
    out.printf("  accounts    %s (%s failed)%n", count(c.accounts()), count(c.accountsFailed()));
    out.printf(
        "  items       %s restored, %s skipped, %s failed%n",
        count(c.itemsRestored()), count(c.itemsSkipped()), count(c.itemsFailed()));
    out.printf(
        "  blobs       %s restored, %s deduplicated%n",
        bytes(c.bytesRestored()), count(c.dedupHits()));
    out.printf(
        "  phases      provisioning %s, data %s (%s), shares %s%n",
        seconds(v.phases().provisioningMs()),
        seconds(v.phases().dataMs()),
        rate(c.itemsRestored() + c.itemsSkipped(), v.phases().dataMs()),
        seconds(v.phases().sharesMs()));
    if (c.errors() + c.warnings() > 0) {
      out.printf(
          "  failures    %s errors, %s warnings (repairs)%n",
          count(c.errors()), count(c.warnings()));
    }
    if (v.message() != null) {
      out.printf("  message     %s%n", v.message());
    }
  }

  /** One line per operation, for lists. */
  static void operationLine(PrintStream out, OperationView v) {
    OperationSummary.Counts c = v.counts();
    out.printf(
        "%s  %-9s %-12s %s/%s accounts  %s items restored, %s failed  %s%n",
        v.id(),
        v.state(),
        v.phase() == null ? "-" : v.phase(),
        count(c.accountsDone()),
        count(c.accounts()),
        count(c.itemsRestored()),
        count(c.itemsFailed()),
        v.source());
  }

  /** The accounts of an operation: how many in each state, then those not finished. */
  static void accounts(PrintStream out, List<AccountProgress> accounts) {
    accounts(out, accounts, false);
  }

  /** The accounts of an operation: how many in each state, then each (or those not finished). */
  static void accounts(PrintStream out, List<AccountProgress> accounts, boolean all) {
    Map<AccountState, Long> byState = new EnumMap<>(AccountState.class);
    accounts.forEach(a -> byState.merge(a.state(), 1L, Long::sum));
    out.printf("  by state    %s%n", byState.isEmpty() ? "-" : byState);
    for (AccountProgress a : accounts) {
      if (all || a.finishedAt() == null || a.error() != null) {
        out.printf(
            "    %-40s %-11s %s restored%s%s%n",
            a.accountName(),
            a.state(),
            count(a.itemsRestored()),
            a.leaseOwner() == null ? "" : ", held by " + a.leaseOwner(),
            a.error() == null ? "" : ": " + a.error());
      }
    }
  }

  static void failures(PrintStream out, List<FailureRecord> failures, long total) {
    for (FailureRecord f : failures) {
      out.printf(
          "  %-7s %-20s account %s item %d %s: %s%n",
          f.severity(),
          f.reason(),
          f.sourceAccountId().isEmpty() ? "-" : f.sourceAccountId(),
          f.itemId(),
          f.location().isEmpty() ? "" : "(" + f.location() + ")",
          f.detail());
    }
    if (total > failures.size()) {
      out.printf("  ... and %s more%n", count(total - failures.size()));
    }
  }

  /** A verify report as {@code --json} prints it: whether identical, and the report. */
  static java.util.Map<String, Object> verifyJson(VerifyReport r) {
    return java.util.Map.of("identical", r.identical(), "report", r);
  }

  static void verify(PrintStream out, VerifyReport r) {
    if (r.identical()) {
      out.printf(
          "  verify      no differences (%s accounts, %s items, %s blobs checked byte for byte)%n",
          count(r.accounts()), count(r.items()), count(r.blobsChecked()));
    } else {
      out.printf("  verify      %s differences%n", count(r.differenceCount()));
      r.differences().forEach(d -> out.println("    " + d));
    }
    if (r.excused() > 0) {
      out.printf(
          "              (%s items missing as reported in the failure list)%n", count(r.excused()));
    }
  }

  /** The report's human summary: a line per account, then each unrestored item (50 at most). */
  static void report(PrintStream out, org.mailrestore.restore.OperationReport r) {
    out.printf("  report of   %s  %s%n", r.operation().id(), r.operation().state());
    int listed = 0;
    for (var a : r.accounts()) {
      out.printf(
          "  %-40s %-10s %s restored, %s skipped, %s unrestored%s%n",
          a.account(),
          a.state(),
          count(a.restored()),
          count(a.skipped()),
          count(a.unrestored().size()),
          a.repaired().isEmpty() ? "" : ", " + count(a.repaired().size()) + " repaired");
      for (var p : a.unrestored()) {
        if (listed++ < 50) {
          out.printf("      item %d %s: %s%n", p.itemId(), p.reason(), p.detail());
        }
      }
    }
    for (var p : r.general()) {
      if (listed++ < 50) {
        out.printf("  (operation) %s %s: %s%n", p.reason(), p.location(), p.detail());
      }
    }
    if (listed > 50) {
      out.printf("  ... and %s more in the JSON report%n", count(listed - 50));
    }
  }

  /** A dry run's plan: what each account would become, and what would be copied. */
  static void plan(PrintStream out, org.mailrestore.restore.RestorePlan p) {
    out.printf("  dry run     nothing was written%n");
    out.printf("  from        %s%n", p.source());
    out.printf("  into        %s (policy %s)%n", p.target(), p.policy());
    for (var a : p.accounts()) {
      out.printf(
          "  %-8s %-40s %s items, %s%s%s%n",
          a.action(),
          a.account(),
          count(a.items()),
          bytes(a.bytes()),
          a.into().equals(a.account()) ? "" : " as " + a.into(),
          a.undecodable() > 0 ? ", " + count(a.undecodable()) + " unreadable" : "");
      if (!a.itemsByType().isEmpty()) {
        out.printf("           %s%n", a.itemsByType());
      }
    }
    for (String u : p.unreadable()) {
      out.printf("  UNREADABLE %s%n", u);
    }
    out.printf(
        "  total       %s accounts, %s items, %s to copy%n",
        count(p.accounts().size()), count(p.items()), bytes(p.bytes()));
  }
}
