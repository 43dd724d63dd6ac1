package org.mailrestore.server.api;

import java.util.List;
import org.mailrestore.mail.Json;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Why a body could not be read, as a 400 that names the field and says what is wrong with it,
 * without quoting more of the body than a bounded field name.
 */
final class UnreadableBody {

  private UnreadableBody() {}

  static ProblemDetail problem(Throwable e) {
    JacksonException json = jacksonCause(e);
    FieldErrors.FieldError error =
        json == null
            ? new FieldErrors.FieldError("body", "is missing or cannot be read")
            : describe(json);
    ProblemDetail p =
        ApiExceptionHandler.problem(
            HttpStatus.BAD_REQUEST, "Bad request", "the request body cannot be read as asked");
    p.setProperty(
        ApiExceptionHandler.ERRORS,
        List.of(
            new FieldErrors.FieldError(
                ApiExceptionHandler.bounded(error.field()),
                ApiExceptionHandler.bounded(error.message()))));
    return p;
  }

  private static JacksonException jacksonCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof JacksonException j) {
        return j;
      }
    }
    return null;
  }

  private static FieldErrors.FieldError describe(JacksonException e) {
    String path = Json.fieldPath(e);
    String field = path.isEmpty() ? "body" : path;
    String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    if (original.startsWith("Trailing token")) {
      return new FieldErrors.FieldError("body", "has content after the JSON object");
    }
    return switch (e) {
      case UnrecognizedPropertyException u ->
          new FieldErrors.FieldError(
              field, "is not a field of this request (misspelt? see the API's documentation)");
      case InvalidNullException n -> new FieldErrors.FieldError(field, "must not be null");
      case ValueInstantiationException v ->
          new FieldErrors.FieldError(
              field,
              v.getCause() != null && v.getCause().getMessage() != null
                  ? v.getCause().getMessage()
                  : "has an invalid value");
      case MismatchedInputException m -> new FieldErrors.FieldError(field, mismatch(m));
      case InputCoercionException c -> new FieldErrors.FieldError(field, outOfRange(c));
      case StreamReadException r -> syntax(r, field);
      default -> new FieldErrors.FieldError(field, "cannot be read");
    };
  }

  private static String mismatch(MismatchedInputException m) {
    String original = m.getOriginalMessage();
    if (original != null && original.startsWith("must ")) {
      return original; // our own words (an instant given as a number, say)
    }
    Class<?> type = m.getTargetType();
    return type == null
        ? "has the wrong type"
        : "has the wrong type: expected " + typeName(type) + ", with no conversion";
  }

  private static String outOfRange(InputCoercionException c) {
    Class<?> type = c.getTargetType();
    if (type == int.class || type == Integer.class) {
      return "is out of range: must be a whole number from "
          + Integer.MIN_VALUE
          + " to "
          + Integer.MAX_VALUE
          + " (and within the field's documented bounds)";
    }
    if (type == long.class || type == Long.class) {
      return "is out of range: must be a whole number from "
          + Long.MIN_VALUE
          + " to "
          + Long.MAX_VALUE
          + " (and within the field's documented bounds)";
    }
    return "is out of range" + (type == null ? "" : " for " + typeName(type));
  }

  private static String typeName(Class<?> type) {
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "a whole number";
    }
    if (type == double.class || type == Double.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (List.class.isAssignableFrom(type)) {
      return "a list";
    }
    return "an object (" + type.getSimpleName() + ")";
  }

  private static FieldErrors.FieldError syntax(StreamReadException r, String field) {
    String original = r.getOriginalMessage() == null ? "" : r.getOriginalMessage();
    if (original.startsWith("Duplicate Object property")) {
      int open = original.indexOf('"');
      int close = original.indexOf('"', open + 1);
      String name = open >= 0 && close > open ? original.substring(open + 1, close) : field;
      return new FieldErrors.FieldError(name, "is given more than once");
    }
    TokenStreamLocation at = r.getLocation();
    String where =
        at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    return new FieldErrors.FieldError("body", "is not valid JSON" + where);
  }
}
