package org.mailrestore.server.api;

import java.util.ArrayList;
import java.util.List;

/** A request whose fields are wrong: each field with what is wrong with it (a 400 answer). */
public final class FieldErrors extends RuntimeException {

  private static final long serialVersionUID = 1;

  /** One wrong field. */
  public record FieldError(String field, String message) {}

  private final List<FieldError> errors = new ArrayList<>();

  public FieldErrors() {
    super("the request is invalid");
  }

  public static FieldErrors of(String field, String message) {
    FieldErrors e = new FieldErrors();
    e.add(field, message);
    return e;
  }

  public void add(String field, String message) {
    errors.add(new FieldError(field, message));
  }

  public boolean isEmpty() {
    return errors.isEmpty();
  }

  public List<FieldError> errors() {
    return List.copyOf(errors);
  }

  void throwIfAny() {
    if (!errors.isEmpty()) {
      throw this;
    }
  }
}
