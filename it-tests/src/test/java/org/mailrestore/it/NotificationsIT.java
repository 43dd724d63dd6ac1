package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import jakarta.mail.internet.MimeMessage;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Json;
import tools.jackson.databind.JsonNode;

/**
 * When a restore ends, the administrator hears of it: a webhook (signed, retried) on a real HTTP
 * server, and a mail through a real SMTP server, both on loopback, from the packaged CLI.
 */
class NotificationsIT {

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  /** One POST the webhook received. */
  private record Received(String event, String signature, byte[] body) {}

  private List<String> restore(Path backup, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "restore",
                "run",
                "--backup",
                backup.toString(),
                "--jdbc-url",
                own.database().jdbcUrl(),
                "--db-user",
                own.database().server().user(),
                "--volume",
                dir.resolve("volume").toString()));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void aSignedWebhookIsPostedWhenTheRestoreEndsAndRetriedWhenRefused() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 80, 6);
    List<Received> received = new CopyOnWriteArrayList<>();
    AtomicInteger endCalls = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/hook",
        exchange -> {
          try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String event = exchange.getRequestHeaders().getFirst("X-Mailrestore-Event");
            received.add(
                new Received(
                    event, exchange.getRequestHeaders().getFirst("X-Mailrestore-Signature"), body));
            // The first delivery of the end meets a receiver that is down for a moment.
            boolean refuse = "operation.ended".equals(event) && endCalls.getAndIncrement() == 0;
            exchange.sendResponseHeaders(refuse ? 503 : 204, -1);
          }
        });
    server.start();
    try {
      String secret = "webhook-secret-" + System.nanoTime();
      CliProcess cli =
          CliProcess.start(
              own.database().server().password(),
              null,
              Map.of("MAILRESTORE_WEBHOOK_SECRET", secret),
              restore(
                  backup,
                  "--notify-webhook",
                  "http://127.0.0.1:" + server.getAddress().getPort() + "/hook",
                  "--notify-after-provisioning"));
      assertThat(cli.waitFor(120)).as(cli.output()).isZero();

      assertThat(received).extracting(Received::event).contains("operation.provisioned");
      List<Received> ended =
          received.stream().filter(r -> "operation.ended".equals(r.event())).toList();
      assertThat(ended).as("the refused first delivery, then its retry").hasSize(2);
      for (Received r : received) {
        assertThat(r.signature()).isEqualTo("sha256=" + hmac(secret, r.body()));
      }
      JsonNode body = Json.MAPPER.readTree(ended.get(1).body());
      assertThat(body.at("/operation/state").asString()).isEqualTo("COMPLETED");
      assertThat(body.path("accounts").size()).isEqualTo(3);
      assertThat(body.at("/accounts/0/restored").asLong()).isPositive();
      assertThat(body.path("subject").asString()).contains("ended COMPLETED");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aMailWithTheReportsSummaryGoesThroughTheSmtpServer() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 80, 7);
    String digest = RestoreProcesses.deleteALiveMessagesBlob(backup);
    GreenMail smtp = smtpServer();
    int port = smtp.getSmtp().getPort();
    try {
      CliProcess cli =
          CliProcess.start(
              own.database().server().password(),
              restore(
                  backup,
                  "--notify-email",
                  "admin@example.org",
                  "--smtp-host",
                  "127.0.0.1",
                  "--smtp-port",
                  String.valueOf(port),
                  "--smtp-from",
                  "restores@example.org"));
      assertThat(cli.waitFor(120)).as(cli.output()).isEqualTo(1);
      assertThat(smtp.waitForIncomingEmail(10_000, 1)).isTrue();
      MimeMessage[] mails = smtp.getReceivedMessages();
      assertThat(mails).hasSize(1);
      MimeMessage mail = mails[0];
      assertThat(mail.getSubject()).contains("ended PARTIAL");
      assertThat(mail.getAllRecipients()[0].toString()).isEqualTo("admin@example.org");
      assertThat(mail.getFrom()[0].toString()).isEqualTo("restores@example.org");
      String text = GreenMailUtil.getBody(mail);
      assertThat(text).contains("1 unrestored").contains("BLOB_MISSING").contains(digest);
    } finally {
      smtp.stop();
    }
  }

  @Test
  void withNotifyOwnersEachRestoredAccountIsToldItsMailIsBack() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 2, 40, 8);
    GreenMail smtp = smtpServer();
    int port = smtp.getSmtp().getPort();
    try {
      CliProcess cli =
          CliProcess.start(
              own.database().server().password(),
              restore(
                  backup,
                  "--notify-email",
                  "admin@example.org",
                  "--notify-owners",
                  "--smtp-host",
                  "127.0.0.1",
                  "--smtp-port",
                  String.valueOf(port)));
      assertThat(cli.waitFor(120)).as(cli.output()).isZero();
      assertThat(smtp.waitForIncomingEmail(10_000, 4)).isTrue();
      List<MimeMessage> owners = new java.util.ArrayList<>();
      List<MimeMessage> admins = new java.util.ArrayList<>();
      for (MimeMessage m : smtp.getReceivedMessages()) {
        (m.getSubject().equals("Your mailbox has been restored") ? owners : admins).add(m);
      }
      assertThat(admins).hasSize(1);
      assertThat(admins.get(0).getAllRecipients()[0].toString()).isEqualTo("admin@example.org");
      assertThat(owners).as("one mail to each of the three restored accounts").hasSize(3);
      java.util.Set<String> told = new java.util.HashSet<>();
      for (MimeMessage m : owners) {
        String to = m.getAllRecipients()[0].toString();
        told.add(to);
        assertThat(GreenMailUtil.getBody(m))
            .contains("Your mailbox " + to + " has been restored")
            .containsPattern("[0-9,]+ items were restored");
      }
      assertThat(told).hasSize(3).doesNotContain("admin@example.org");
    } finally {
      smtp.stop();
    }
  }

  /** A real SMTP server (GreenMail) on a free loopback port, started. */
  private static GreenMail smtpServer() throws java.io.IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    GreenMail smtp = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    return smtp;
  }

  private static String hmac(String secret, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(body));
  }
}
