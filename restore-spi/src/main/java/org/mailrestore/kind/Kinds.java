package org.mailrestore.kind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kinds of one sort installed on the class path (found with {@link ServiceLoader}), by name:
 * the one registry of source kinds, target kinds and export formats.
 *
 * @param <K> the sort of kind
 */
public final class Kinds<K extends Kind> {

  private static final Map<Class<?>, Kinds<?>> INSTALLED = new ConcurrentHashMap<>();

  private final String sort;
  private final String field;
  private final List<K> kinds;

  /**
   * @param sort what one of them is called, for messages ({@code source kind})
   * @param field the request field that names one ({@code source.kind})
   */
  public Kinds(String sort, String field, List<K> kinds) {
    this.sort = sort;
    this.field = field;
    this.kinds = kinds.stream().sorted(Comparator.comparing(Kind::name)).toList();
  }

  /** The kinds of {@code type} on the class path that loaded it, looked for once. */
  @SuppressWarnings("unchecked") // the map holds a Kinds<K> under K's class
  public static <K extends Kind> Kinds<K> installed(Class<K> type, String sort, String field) {
    return (Kinds<K>)
        INSTALLED.computeIfAbsent(
            type,
            t -> {
              List<K> found = new ArrayList<>();
              ServiceLoader.load(type, type.getClassLoader()).forEach(found::add);
              return new Kinds<>(sort, field, found);
            });
  }

  /** The kinds, by name. */
  public List<K> all() {
    return kinds;
  }

  public List<String> names() {
    return kinds.stream().map(Kind::name).toList();
  }

  public Optional<K> find(String name) {
    return kinds.stream().filter(k -> k.name().equals(name)).findFirst();
  }

  /**
   * The kind of this name.
   *
   * @throws FieldProblems.Invalid naming the field when the name is missing or no such kind is
   *     installed
   */
  public K require(String name) {
    if (name == null || name.isBlank()) {
      throw new FieldProblems.Invalid(field, "is required (one of " + known() + ")");
    }
    return find(name)
        .orElseThrow(() ->
            new FieldProblems.Invalid(
                field, "\"" + name + "\" is not a " + sort + " (known: " + known() + ")"));
  }

  private String known() {
    return String.join(", ", names());
  }
}
