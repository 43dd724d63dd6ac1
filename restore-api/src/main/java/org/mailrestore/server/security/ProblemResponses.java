package org.mailrestore.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.mailrestore.server.api.ProblemBodies;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.stereotype.Component;

/** 401 and 403 as problem details, like every other error of the API. */
@Component
class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler {

  @Override
  public void commence(
      HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException {
    response.setHeader("WWW-Authenticate", "Bearer, Basic realm=\"mailrestore\"");
    write(
        response,
        401,
        "Unauthorized",
        "authentication is required: an API token (Authorization: Bearer) or a user (basic auth)");
  }

  @Override
  public void handle(
      HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
      throws IOException {
    write(response, 403, "Forbidden", "this needs the admin role");
  }

  static void write(HttpServletResponse response, int status, String title, String detail)
      throws IOException {
    ProblemBodies.write(response, ProblemBodies.problem(HttpStatus.valueOf(status), title, detail));
  }
}
