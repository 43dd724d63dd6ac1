package org.mailrestore.notify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.OperationListener;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * POSTs the report's summary as JSON to a URL when an operation ends (and, if asked, when its phase
 * 1 ends), signed with HMAC-SHA256 of the body in {@code X-Mailrestore-Signature: sha256=<hex>}
 * when a secret is set; retried on a connection error, 429 or 5xx.
 */
public final class WebhookNotifier implements OperationListener {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookNotifier.class);
  static final String SIGNATURE = "X-Mailrestore-Signature";
  static final String EVENT = "X-Mailrestore-Event";

  private final URI url;
  private final String secret;
  private final boolean afterProvisioning;
  private final List<Duration> backoff;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /**
   * @param secret the HMAC key of the signature header; null or blank for no signature
   * @param backoff the waits before each retry (so its size is the number of retries)
   */
  public WebhookNotifier(
      URI url, String secret, boolean afterProvisioning, List<Duration> backoff) {
    if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
      throw new IllegalArgumentException("a webhook is an http:// or https:// URL, not " + url);
    }
    this.url = url;
    this.secret = secret == null || secret.isBlank() ? null : secret;
    this.afterProvisioning = afterProvisioning;
    this.backoff = List.copyOf(backoff);
  }

  @Override
  public void ended(OperationReport report) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("event", "operation.ended");
    body.put("operation", report.operation());
    body.put(
        "accounts",
        report.accounts().stream()
            .map(a ->
                Map.of(
                    "account", a.account(),
                    "state", a.state(),
                    "restored", a.restored(),
                    "skipped", a.skipped(),
                    "unrestored", a.unrestored().size()))
            .toList());
    body.put("subject", NotificationText.subject(report));
    post("operation.ended", body, report.operation().id());
  }

  @Override
  public void provisioned(OperationSummary summary) {
    if (afterProvisioning) {
      post(
          "operation.provisioned",
          Map.of("event", "operation.provisioned", "operation", summary),
          summary.id());
    }
  }

  private void post(String event, Object body, String operationId) {
    byte[] json = Json.MAPPER.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header(EVENT, event)
            .POST(HttpRequest.BodyPublishers.ofByteArray(json));
    if (secret != null) {
      request.header(SIGNATURE, "sha256=" + sign(secret, json));
    }
    String last = "";
    for (int attempt = 0; attempt <= backoff.size(); attempt++) {
      if (attempt > 0) {
        try {
          Thread.sleep(backoff.get(attempt - 1));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      try {
        int status =
            http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status < 300) {
          return;
        }
        last = "HTTP " + status;
        if (status != 429 && status < 500) {
          break; // the receiver refuses it: asking again will not help
        }
      } catch (IOException e) {
        last = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    LOG.warn("operation {}: the webhook {} was not delivered: {}", operationId, url, last);
  }

  /** The hex HMAC-SHA256 of a body: what a receiver computes to check the signature. */
  static String sign(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
