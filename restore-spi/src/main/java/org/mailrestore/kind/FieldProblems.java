package org.mailrestore.kind;

import java.util.ArrayList;
import java.util.List;

/** What is wrong with a request's part, field by field ({@code source.options.domain}...). */
public final class FieldProblems {

  /** One field and why it is wrong. */
  public record Problem(String field, String message) {}

  private final List<Problem> problems = new ArrayList<>();

  public void add(String field, String message) {
    problems.add(new Problem(field, message));
  }

  public boolean isEmpty() {
    return problems.isEmpty();
  }

  public List<Problem> list() {
    return List.copyOf(problems);
  }

  /** Throws when anything is wrong. */
  public void throwIfAny() {
    if (!problems.isEmpty()) {
      throw new Invalid(list());
    }
  }

  /** A part that cannot be used as given; {@link #problems()} names the fields. */
  public static final class Invalid extends IllegalArgumentException {
    private static final long serialVersionUID = 1;
    private final transient List<Problem> problems;

    public Invalid(List<Problem> problems) {
      super(String.join("; ", problems.stream().map(p -> p.field() + " " + p.message()).toList()));
      this.problems = List.copyOf(problems);
    }

    public Invalid(String field, String message) {
      this(List.of(new Problem(field, message)));
    }

    public List<Problem> problems() {
      return problems;
    }
  }
}
