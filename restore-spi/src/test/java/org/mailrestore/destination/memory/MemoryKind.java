package org.mailrestore.destination.memory;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.mail.ItemType;

/**
 * The in-memory target kind, for tests: {@code memory} with a store's name as location, and the
 * content types it carries as an option (all by default), so that a test composes it with another
 * target that takes the rest.
 */
public final class MemoryKind implements TargetKind {

  public static final String NAME = "memory";
  public static final String TYPES = "types";

  /** The target of a store, carrying every content type. */
  public static TargetSpec of(String store) {
    return TargetSpec.of(NAME, store, Map.of());
  }

  /** The target of a store, carrying only these content types. */
  public static TargetSpec of(String store, Set<ItemType> types) {
    return TargetSpec.of(
        NAME,
        store,
        Map.of(
            TYPES,
            types.stream().map(ItemType::wireName).sorted().collect(Collectors.joining(","))));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "a target held in memory, for tests";
  }

  @Override
  public KindOption location() {
    return KindOption.required("store", "the store's name: targets of one name share one store");
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.optional(TYPES, "the content types it carries, by name (default: all)"));
  }

  @Override
  public void check(TargetSpec spec, FieldProblems problems) {
    try {
      types(spec);
    } catch (IllegalArgumentException e) {
      problems.add("target.options." + TYPES, e.getMessage());
    }
  }

  @Override
  public String describe(TargetSpec spec) {
    return "the in-memory store " + spec.location();
  }

  @Override
  public MailTarget open(TargetSpec spec, TargetContext context) {
    return new MemoryTarget(MemoryStore.named(spec.location()), types(spec));
  }

  private static Set<ItemType> types(TargetSpec spec) {
    String given = spec.option(TYPES);
    if (given == null || given.isBlank()) {
      return ItemType.contents();
    }
    Set<ItemType> types = EnumSet.noneOf(ItemType.class);
    for (String name : given.split(",")) {
      ItemType type = ItemType.fromWireName(name.strip().toLowerCase(Locale.ROOT));
      if (type == null || !ItemType.contents().contains(type)) {
        throw new IllegalArgumentException("\"" + name + "\" is not a content type");
      }
      types.add(type);
    }
    return types;
  }
}
