package org.mailrestore.server.api;

import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
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
      ProblemBodies.write(response, ProblemErrorController.problem(status, false));
      response.finishResponse();
    } catch (IOException | IllegalStateException e) {
      // The connection is gone or the response was committed meanwhile: nothing more to say.
    }
  }
}
