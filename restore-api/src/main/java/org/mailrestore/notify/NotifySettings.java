package org.mailrestore.notify;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.restore.OperationListener;

/**
 * Who is told when an operation ends: a webhook, mail recipients, or both; the same for the service
 * ({@code mailrestore.notify.*}) and the CLI ({@code --notify-*}).
 *
 * @param webhookSecret the HMAC key of the webhook's signature header (from the environment or a
 *     secret store, never a command line)
 * @param smtpUser null when the SMTP server takes mail without logging in
 */
public record NotifySettings(
    String webhookUrl,
    String webhookSecret,
    List<String> emailTo,
    String smtpHost,
    Integer smtpPort,
    boolean smtpStartTls,
    String smtpUser,
    String smtpPassword,
    String smtpFrom,
    boolean afterProvisioning) {

  /** The waits before the webhook's retries. */
  static final List<Duration> WEBHOOK_BACKOFF =
      List.of(Duration.ofSeconds(1), Duration.ofSeconds(4), Duration.ofSeconds(15));

  public NotifySettings {
    emailTo = emailTo == null ? List.of() : List.copyOf(emailTo);
  }

  /**
   * The listeners these settings ask for, heard as each operation's request asks ({@link
   * org.mailrestore.restore.Notice}): the configured recipients, and the owners of the restored
   * accounts through the SMTP server.
   */
  public OperationListener listener() {
    List<OperationListener> configured = new ArrayList<>();
    if (webhookUrl != null && !webhookUrl.isBlank()) {
      configured.add(
          new WebhookNotifier(
              URI.create(webhookUrl), webhookSecret, afterProvisioning, WEBHOOK_BACKOFF));
    }
    if (!emailTo.isEmpty()) {
      configured.add(new MailNotifier(smtp(), emailTo, afterProvisioning));
    }
    return new RequestedNotices(
        configured.isEmpty() ? OperationListener.NONE : new Notifications(configured),
        new OwnerMail(smtp()));
  }

  /** Whether an SMTP server is named, so that owners can be mailed. */
  public boolean mailsOwners() {
    return smtpHost != null && !smtpHost.isBlank();
  }

  private MailNotifier.Smtp smtp() {
    return new MailNotifier.Smtp(
        smtpHost == null || smtpHost.isBlank() ? "localhost" : smtpHost,
        smtpPort == null ? 25 : smtpPort,
        smtpStartTls,
        smtpUser == null || smtpUser.isBlank() ? null : smtpUser,
        smtpPassword,
        smtpFrom == null || smtpFrom.isBlank() ? defaultFrom() : smtpFrom);
  }

  private static String defaultFrom() {
    try {
      return "mailrestore@" + InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return "mailrestore@localhost";
    }
  }
}
