package org.mailrestore.cli;

import java.util.ArrayList;
import java.util.List;
import org.mailrestore.notify.NotifySettings;
import org.mailrestore.restore.OperationListener;
import picocli.CommandLine.Option;

/** Who is told when the restore ends. Secrets come from the environment, never the command line. */
final class NotifyOptions {

  @Option(
      names = "--notify-webhook",
      description =
          "POST the report's summary here when the operation ends (signed with the secret in"
              + " MAILRESTORE_WEBHOOK_SECRET, when set)")
  String webhook;

  @Option(
      names = "--notify-email",
      description = "Mail the report's summary to this address when the operation ends; repeatable")
  List<String> emailTo = new ArrayList<>();

  @Option(
      names = "--notify-after-provisioning",
      description = "Also notify when phase 1 (accounts) ends")
  boolean afterProvisioning;

  @Option(
      names = "--smtp-host",
      defaultValue = "localhost",
      description =
          "The SMTP server mail notifications go through (default: ${DEFAULT-VALUE}); its login"
              + " in MAILRESTORE_SMTP_USER and MAILRESTORE_SMTP_PASSWORD when it needs one")
  String smtpHost;

  @Option(names = "--smtp-port", defaultValue = "25", description = "(default: ${DEFAULT-VALUE})")
  int smtpPort;

  @Option(names = "--smtp-starttls", description = "Require STARTTLS")
  boolean smtpStartTls;

  @Option(names = "--smtp-from", description = "The sender (default: mailrestore@<this host>)")
  String smtpFrom;

  OperationListener listener() {
    var env = System.getenv();
    return new NotifySettings(
            webhook,
            env.get("MAILRESTORE_WEBHOOK_SECRET"),
            emailTo,
            smtpHost,
            smtpPort,
            smtpStartTls,
            env.get("MAILRESTORE_SMTP_USER"),
            env.get("MAILRESTORE_SMTP_PASSWORD"),
            smtpFrom,
            afterProvisioning)
        .listener();
  }
}
