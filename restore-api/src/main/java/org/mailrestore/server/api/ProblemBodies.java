package org.mailrestore.server.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.mailrestore.mail.Json;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Problem details (RFC 9457) as every error of the service answers them: made here, and written
 * here by the parts of the service that answer before or outside Spring MVC (filters, security, the
 * container's error valve).
 */
public final class ProblemBodies {

  /** The longest detail answered: a detail may quote what was sent (an id, a value). */
  static final int MAX_DETAIL = 300;

  private ProblemBodies() {}

  public static ProblemDetail problem(HttpStatus status, String title, String detail) {
    ProblemDetail p = ProblemDetail.forStatusAndDetail(status, bounded(detail));
    p.setTitle(title);
    p.setType(URI.create("about:blank"));
    return p;
  }

  static String bounded(String text) {
    return text == null || text.length() <= MAX_DETAIL
        ? text
        : text.substring(0, MAX_DETAIL) + "... (" + text.length() + " characters)";
  }

  /** Answers with the problem: its status, {@code application/problem+json}, its length. */
  public static void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
    byte[] body = Json.MAPPER.writeValueAsBytes(problem);
    response.setStatus(problem.getStatus());
    response.setContentType("application/problem+json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
