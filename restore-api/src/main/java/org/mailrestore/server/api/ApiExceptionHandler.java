package org.mailrestore.server.api;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.restore.IdempotencyKeyReusedException;
import org.mailrestore.server.SourcePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error as an RFC 9457 problem detail: a title, a detail a person can act on, and for bad
 * requests the list of wrong fields ({@code errors}: field and message).
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ApiExceptionHandler.class);

  static final String ERRORS = "errors";

  static ProblemDetail problem(HttpStatus status, String title, String detail) {
    return ProblemBodies.problem(status, title, detail);
  }

  static String bounded(String text) {
    return ProblemBodies.bounded(text);
  }

  private static ProblemDetail badRequest(String detail, List<FieldErrors.FieldError> errors) {
    ProblemDetail p = problem(HttpStatus.BAD_REQUEST, "Bad request", detail);
    p.setProperty(ERRORS, errors);
    return p;
  }

  @ExceptionHandler(NoSuchElementException.class)
  ProblemDetail notFound(NoSuchElementException e) {
    return problem(HttpStatus.NOT_FOUND, "Not found", e.getMessage());
  }

  @ExceptionHandler(IllegalStateException.class)
  ProblemDetail conflict(IllegalStateException e) {
    return problem(HttpStatus.CONFLICT, "Conflict", e.getMessage());
  }

  @ExceptionHandler(IdempotencyKeyReusedException.class)
  ProblemDetail keyReused(IdempotencyKeyReusedException e) {
    return problem(HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused", e.getMessage());
  }

  @ExceptionHandler(FieldErrors.class)
  ProblemDetail fields(FieldErrors e) {
    return badRequest("the request has invalid fields", e.errors());
  }

  @ExceptionHandler(FieldProblems.Invalid.class)
  ProblemDetail fields(FieldProblems.Invalid e) {
    return badRequest(
        "the request has invalid fields",
        e.problems().stream()
            .map(p -> new FieldErrors.FieldError(p.field(), bounded(p.message())))
            .toList());
  }

  @ExceptionHandler(SourcePolicy.Refused.class)
  ProblemDetail refused(SourcePolicy.Refused e) {
    return badRequest(
        "the source is not allowed",
        List.of(new FieldErrors.FieldError(e.field(), e.getMessage())));
  }

  @ExceptionHandler(SourceUnreadableException.class)
  ProblemDetail unreadable(SourceUnreadableException e) {
    return problem(HttpStatus.UNPROCESSABLE_CONTENT, "Cannot be read", e.getMessage());
  }

  @ExceptionHandler(IllegalArgumentException.class)
  ProblemDetail illegal(IllegalArgumentException e) {
    return badRequest(e.getMessage(), List.of());
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ProblemDetail mismatch(MethodArgumentTypeMismatchException e) {
    return badRequest(
        "the request has invalid fields",
        List.of(
            new FieldErrors.FieldError(
                e.getName(), bounded("has an invalid value: " + e.getValue()))));
  }

  @ExceptionHandler(SQLException.class)
  ProblemDetail database(SQLException e) {
    LOG.warn("the database failed a request: {}", e.getMessage());
    ProblemDetail p =
        problem(
            HttpStatus.SERVICE_UNAVAILABLE,
            "Database unavailable",
            "the mailstore database did not answer; try again shortly");
    return p;
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BodyLimit.TooLarge tooLarge) {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE)
            .body(BodyLimit.problem(tooLarge.limit()));
      }
    }
    return ResponseEntity.badRequest().body(UnreadableBody.problem(e));
  }

  @Override
  protected ResponseEntity<Object> handleMethodArgumentNotValid(
      MethodArgumentNotValidException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<FieldErrors.FieldError> errors = new ArrayList<>();
    e.getBindingResult()
        .getFieldErrors()
        .forEach(f -> errors.add(new FieldErrors.FieldError(f.getField(), f.getDefaultMessage())));
    e.getBindingResult()
        .getGlobalErrors()
        .forEach(
            g -> errors.add(new FieldErrors.FieldError(g.getObjectName(), g.getDefaultMessage())));
    return ResponseEntity.badRequest().body(badRequest("the request has invalid fields", errors));
  }

  @Override
  protected ResponseEntity<Object> handleHandlerMethodValidationException(
      HandlerMethodValidationException e,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<FieldErrors.FieldError> errors = new ArrayList<>();
    for (ParameterValidationResult r : e.getParameterValidationResults()) {
      if (r instanceof ParameterErrors body) {
        // a request body: name its fields, not the parameter
        body.getFieldErrors()
            .forEach(
                f -> errors.add(new FieldErrors.FieldError(f.getField(), f.getDefaultMessage())));
        continue;
      }
      String name = r.getMethodParameter().getParameterName();
      r.getResolvableErrors()
          .forEach(err ->
              errors.add(
                  new FieldErrors.FieldError(
                      name == null ? "parameter" : name, err.getDefaultMessage())));
    }
    return ResponseEntity.badRequest().body(badRequest("the request has invalid fields", errors));
  }

  /** The framework's own problems (405, 415, 406...) named as ours are: with a {@code type}. */
  @Override
  protected ResponseEntity<Object> createResponseEntity(
      Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    if (body instanceof ProblemDetail p && p.getType() == null) {
      p.setType(java.net.URI.create("about:blank"));
    }
    return super.createResponseEntity(body, headers, status, request);
  }
}
