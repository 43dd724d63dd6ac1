package org.mailrestore.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.mailrestore.mail.Json;
import tools.jackson.databind.JsonNode;

/** A small client of the REST API: JSON in, JSON out, problem details turned into messages. */
final class ApiClient {

  /** An answer: the status, its body, the JSON when there is some. */
  record Answer(int status, String body) {
    JsonNode json() {
      return Json.MAPPER.readTree(body);
    }

    <T> T as(Class<T> type) {
      return Json.MAPPER.readValue(body, type);
    }
  }

  /** An error answer of the service (or no answer), with the exit code it means. */
  static final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1;
    private final int exitCode;

    ApiException(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }

    int exitCode() {
      return exitCode;
    }
  }

  private final URI base;

  /** The service's address as shown in messages: a password in it masked. */
  private final String shown;

  private final String authorization;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /**
   * @param base the service's URL; a {@code user:password@} in it is sent as basic authentication
   *     (when there is no token) and never shown
   */
  ApiClient(String base, String token) {
    URI given = URI.create(base.endsWith("/") ? base : base + "/");
    String userInfo = given.getRawUserInfo();
    URI clean = given;
    if (userInfo != null) {
      try {
        clean =
            new URI(
                given.getScheme(),
                null,
                given.getHost(),
                given.getPort(),
                given.getPath(),
                given.getQuery(),
                given.getFragment());
      } catch (java.net.URISyntaxException e) {
        throw new IllegalArgumentException("the service URL is not valid");
      }
    }
    this.base = clean;
    this.shown = masked(given);
    if (token != null && !token.isBlank()) {
      this.authorization = "Bearer " + token;
    } else if (userInfo != null) {
      String decoded = java.net.URLDecoder.decode(userInfo, StandardCharsets.UTF_8);
      this.authorization =
          "Basic "
              + java.util.Base64.getEncoder()
                  .encodeToString(decoded.getBytes(StandardCharsets.UTF_8));
    } else {
      this.authorization = null;
    }
  }

  /** The URL with the password of its user part replaced by {@code ***}. */
  static String masked(URI uri) {
    String userInfo = uri.getRawUserInfo();
    if (userInfo == null) {
      return uri.toString();
    }
    int colon = userInfo.indexOf(':');
    String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
    return uri.toString().replace(userInfo + "@", user + ":***@");
  }

  Answer get(String path) {
    return send(request(path).GET());
  }

  Answer post(String path, Object body, Map<String, String> headers) {
    HttpRequest.Builder b =
        request(path)
            .header("Content-Type", "application/json")
            .POST(
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(
                        Json.MAPPER.writeValueAsString(body), StandardCharsets.UTF_8));
    headers.forEach(b::header);
    return send(b);
  }

  Answer put(String path, Object body) {
    return send(
        request(path)
            .header("Content-Type", "application/json")
            .PUT(
                HttpRequest.BodyPublishers.ofString(
                    Json.MAPPER.writeValueAsString(body), StandardCharsets.UTF_8)));
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofMinutes(6))
            .header("Accept", "application/json, application/problem+json");
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b;
  }

  private Answer send(HttpRequest.Builder request) {
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new ApiException(
          ExitCodes.UNREACHABLE, "cannot reach the service at " + shown + " (is it running?)");
    } catch (IOException e) {
      throw new ApiException(
          ExitCodes.UNREACHABLE,
          "the service at " + shown + " did not answer: " + e.getClass().getSimpleName());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(ExitCodes.FAILED, "interrupted");
    }
    Answer answer = new Answer(response.statusCode(), response.body());
    if (answer.status() >= 400) {
      throw new ApiException(exitCode(answer.status()), problem(answer));
    }
    return answer;
  }

  private static int exitCode(int status) {
    return switch (status) {
      case 401, 403 -> ExitCodes.DENIED;
      case 404 -> ExitCodes.NOT_FOUND;
      case 409 -> ExitCodes.CONFLICT;
      case 400, 422 -> ExitCodes.USAGE;
      case 502, 503, 504 -> ExitCodes.UNREACHABLE;
      default -> ExitCodes.FAILED;
    };
  }

  /** A problem detail as lines a person reads: title, detail, each wrong field. */
  static String problem(Answer answer) {
    try {
      JsonNode p = answer.json();
      StringBuilder sb = new StringBuilder();
      sb.append(p.path("title").asString("HTTP " + answer.status()));
      if (p.hasNonNull("detail")) {
        sb.append(": ").append(p.get("detail").asString());
      }
      for (JsonNode e : p.path("errors")) {
        sb.append(System.lineSeparator())
            .append("  ")
            .append(e.path("field").asString())
            .append(": ")
            .append(e.path("message").asString());
      }
      return sb.toString();
    } catch (RuntimeException e) {
      return "HTTP " + answer.status() + ": " + answer.body();
    }
  }

  /** A path segment as the URL must carry it: an id cannot reach another path ({@code ../}). */
  static String segment(String value) {
    return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)
        .replace("+", "%20");
  }
}
