package org.mailrestore.notify;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mails the report's summary through an SMTP server when an operation ends (and, if asked, when its
 * phase 1 ends), as administrators know from Zextras' "Operation Ended" mail.
 */
public final class MailNotifier implements OperationListener {
  private static final Logger LOG = LoggerFactory.getLogger(MailNotifier.class);

  /**
   * @param user null when the server takes mail without logging in
   */
  public record Smtp(
      String host, int port, boolean startTls, String user, String password, String from) {}

  private final Smtp smtp;
  private final List<String> to;
  private final boolean afterProvisioning;

  public MailNotifier(Smtp smtp, List<String> to, boolean afterProvisioning) {
    if (to.isEmpty()) {
      throw new IllegalArgumentException("a mail notification needs at least one recipient");
    }
    this.smtp = smtp;
    this.to = List.copyOf(to);
    this.afterProvisioning = afterProvisioning;
  }

  @Override
  public void ended(OperationReport report) {
    send(NotificationText.subject(report), NotificationText.body(report), report.operation().id());
  }

  @Override
  public void provisioned(OperationSummary summary) {
    if (afterProvisioning) {
      send(
          NotificationText.subjectProvisioned(summary),
          "Operation " + summary.id() + " has provisioned its accounts; their mail follows.\n",
          summary.id());
    }
  }

  private void send(String subject, String text, String operationId) {
    deliver(smtp, to, subject, text, operationId);
  }

  /**
   * One mail through {@code smtp}; a failure is logged, never thrown (a listener must not throw).
   */
  static void deliver(Smtp smtp, List<String> to, String subject, String text, String operationId) {
    Properties p = new Properties();
    p.put("mail.smtp.host", smtp.host());
    p.put("mail.smtp.port", String.valueOf(smtp.port()));
    p.put("mail.smtp.connectiontimeout", "10000");
    p.put("mail.smtp.timeout", "30000");
    p.put("mail.smtp.starttls.enable", String.valueOf(smtp.startTls()));
    p.put("mail.smtp.starttls.required", String.valueOf(smtp.startTls()));
    p.put("mail.smtp.auth", String.valueOf(smtp.user() != null));
    try {
      MimeMessage m = new MimeMessage(Session.getInstance(p));
      m.setFrom(new InternetAddress(smtp.from()));
      for (String address : to) {
        m.addRecipient(Message.RecipientType.TO, new InternetAddress(address));
      }
      m.setSubject(subject, "UTF-8");
      m.setText(text, "UTF-8");
      m.setSentDate(Date.from(Instant.now()));
      if (smtp.user() != null) {
        Transport.send(m, smtp.user(), smtp.password());
      } else {
        Transport.send(m);
      }
    } catch (MessagingException e) {
      LOG.warn(
          "operation {}: the mail to {} through {}:{} was not sent: {}",
          operationId,
          to,
          smtp.host(),
          smtp.port(),
          e.toString());
    }
  }
}
