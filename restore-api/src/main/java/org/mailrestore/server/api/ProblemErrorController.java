package org.mailrestore.server.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The errors that never reach a controller (a URL the firewall refuses, a failure in a filter, an
 * error dispatch of the container) as problem details too, instead of the framework's own body.
 * Nothing of the request is quoted back.
 */
@Hidden // not an endpoint of the API: where the container sends errors
@RestController
class ProblemErrorController implements ErrorController {

  @RequestMapping("/error")
  ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
    HttpStatus status = status(request);
    Throwable cause = (Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(problem(status, cause instanceof RequestRejectedException));
  }

  static ProblemDetail problem(HttpStatus status, boolean rejectedUrl) {
    return ApiExceptionHandler.problem(
        status, status.getReasonPhrase(), detail(status, rejectedUrl));
  }

  private static HttpStatus status(HttpServletRequest request) {
    if (request.getDispatcherType() != DispatcherType.ERROR
        && request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) == null) {
      return HttpStatus.NOT_FOUND; // asked for by its address: there is no such page
    }
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    HttpStatus status =
        code instanceof Integer i ? HttpStatus.resolve(i) : HttpStatus.INTERNAL_SERVER_ERROR;
    return status == null ? HttpStatus.INTERNAL_SERVER_ERROR : status;
  }

  static String detail(HttpStatus status, boolean rejectedUrl) {
    if (rejectedUrl || status == HttpStatus.BAD_REQUEST) {
      return "the request's URL or headers are not accepted (encoded slashes or dots, semicolons,"
          + " NUL or other control characters, or malformed escapes)";
    }
    return switch (status) {
      case NOT_FOUND -> "there is nothing at this address";
      case METHOD_NOT_ALLOWED -> "this address does not take this method";
      case CONTENT_TOO_LARGE -> "the request is too large";
      case REQUEST_HEADER_FIELDS_TOO_LARGE, URI_TOO_LONG ->
          "the request's URL or headers are too long";
      case INTERNAL_SERVER_ERROR -> "the service failed; the reason is in its log";
      default -> status.getReasonPhrase();
    };
  }
}
