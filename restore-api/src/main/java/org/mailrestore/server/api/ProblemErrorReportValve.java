package org.mailrestore.server.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.mailrestore.mail.Json;
import org.springframework.http.HttpStatus;

/**
 * What the servlet container answers by itself (a URL it refuses before any application code runs:
 * {@code %2F}, {@code %00}, a malformed escape) as a problem detail rather than its HTML page.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int code = response.getStatus();
    if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    HttpStatus status = HttpStatus.resolve(code);
    if (status == null) {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
    }
    try {
      byte[] body =
          Json.MAPPER
              .writeValueAsString(ProblemErrorController.problem(status, false))
              .getBytes(StandardCharsets.UTF_8);
      response.setContentType("application/problem+json");
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
      response.finishResponse();
    } catch (IOException | IllegalStateException e) {
      // The connection is gone or the response was committed meanwhile: nothing more to say.
    }
  }
}
