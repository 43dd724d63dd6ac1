package org.mailrestore.notify;

import org.mailrestore.restore.Notice;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationSummary;

/**
 * The configured recipients and the accounts' owners, each told when the operation's request asks
 * for it ({@link Notice}).
 */
record RequestedNotices(OperationListener service, OperationListener owners)
    implements OperationListener {

  @Override
  public void ended(OperationReport report) {
    Notice notice = notice(report.operation());
    if (notice.service()) {
      service.ended(report);
    }
    if (notice.owners()) {
      owners.ended(report);
    }
  }

  @Override
  public void provisioned(OperationSummary summary) {
    if (notice(summary).service()) {
      service.provisioned(summary);
    }
  }

  private static Notice notice(OperationSummary summary) {
    return summary.request() == null ? Notice.DEFAULT : summary.request().notice();
  }
}
