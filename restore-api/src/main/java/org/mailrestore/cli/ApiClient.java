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
  private final String token;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  ApiClient(String base, String token) {
    this.base = URI.create(base.endsWith("/") ? base : base + "/");
    this.token = token;
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
    if (token != null && !token.isBlank()) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  private Answer send(HttpRequest.Builder request) {
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new ApiException(
          ExitCodes.UNREACHABLE, "cannot reach the service at " + base + " (is it running?)");
    } catch (IOException e) {
      throw new ApiException(
          ExitCodes.UNREACHABLE, "the service at " + base + " did not answer: " + e);
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
