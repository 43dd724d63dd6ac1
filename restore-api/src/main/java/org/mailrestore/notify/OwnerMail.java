package org.mailrestore.notify;

import java.util.List;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;

/**
 * Tells each restored account's owner, in a mail to that account, that its mail is back: what the
 * help desk would otherwise write by hand. Accounts that were skipped or failed are not mailed.
 */
final class OwnerMail implements OperationListener {

  private final MailNotifier.Smtp smtp;

  OwnerMail(MailNotifier.Smtp smtp) {
    this.smtp = smtp;
  }

  @Override
  public void ended(OperationReport report) {
    for (OperationReport.AccountReport account : report.accounts()) {
      if (account.state() == AccountState.RESTORED || account.state() == AccountState.PARTIAL) {
        MailNotifier.deliver(
            smtp,
            List.of(account.account()),
            NotificationText.ownerSubject(),
            NotificationText.ownerBody(report, account),
            report.operation().id());
      }
    }
  }
}
