package org.mailrestore.restore.data;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.Parent;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mail.TextRules;

/**
 * Orders an account's folder-like items (folders, search folders, mountpoints) so parents come
 * before children, and repairs what real backups contain:
 *
 * <ul>
 *   <li>system folders (ids of {@link SystemFolder}) map onto the target's own and are not created;
 *   <li>orphans (parent missing, or a mountpoint as parent) move under the recovery folder;
 *   <li>cycles are broken at their smallest id, which moves under the recovery folder;
 *   <li>names that collide under one parent (case-insensitively, as Zimbra compares them) get
 *       {@code " (2)"}, {@code " (3)"}... in id order.
 * </ul>
 *
 * Every repair is reported as an {@link Issue}. The work is iterative, so a 10,000-level tree is as
 * safe as a flat one, and deterministic: the same input always gives the same plan.
 */
public final class FolderGraph {

  /** The name of the folder, under the user root, that receives orphans and broken cycles. */
  public static final String RECOVERY_FOLDER_NAME = "Recovered Items";

  /** A folder-like item in the state being restored. */
  public record Container(int oldId, ItemType type, Revision state) {}

  /**
   * A folder to create (or, when {@code alreadyRestored}, one a previous run created), in order.
   *
   * @param name the name to create it with (renamed when it collided)
   */
  public record PlannedFolder(
      Container container, Parent parent, String name, boolean alreadyRestored) {}

  /** A repair the plan made, for the failure list. */
  public record Issue(int oldId, Kind kind, String detail) {
    public enum Kind {
      ORPHAN,
      CYCLE,
      DUPLICATE_NAME
    }
  }

  /**
   * The plan.
   *
   * @param folders every container in creation order (parents first)
   * @param needsRecoveryFolder true when some folder was moved under the recovery folder
   * @param recoveryFolderName the recovery folder's name (unique under the user root)
   */
  public record Plan(
      List<PlannedFolder> folders,
      List<Issue> issues,
      boolean needsRecoveryFolder,
      @Nullable String recoveryFolderName) {}

  private FolderGraph() {}

  /** A child's container: the children lists are made from {@code byId}, so it is there. */
  private static Container container(Map<Integer, Container> byId, int id) {
    return Objects.requireNonNull(byId.get(id), () -> "folder " + id + " is no container");
  }

  /**
   * Plans the creation of {@code containers}.
   *
   * @param existingNames lower-cased names of the folder-like items already under each parent in
   *     the target, keyed by the parent's id there
   * @param restored backup ids already restored (by an earlier run), with their ids in the target
   */
  public static Plan plan(
      List<Container> containers,
      Map<Integer, Set<String>> existingNames,
      Map<Integer, Integer> restored) {
    Map<Integer, Container> byId = new TreeMap<>();
    List<Issue> issues = new ArrayList<>();
    for (Container c : containers) {
      if (SystemFolder.byId(c.oldId()) != null) {
        continue; // maps onto the target's own system folder
      }
      byId.put(c.oldId(), c);
    }
    Map<Integer, Parent> parents = new HashMap<>();
    for (Container c : byId.values()) {
      parents.put(c.oldId(), declaredParent(c, byId, issues));
    }
    breakCycles(byId, parents, issues);
    boolean recovery = parents.values().stream().anyMatch(p -> p instanceof Parent.Recovery);
    Map<Integer, Set<String>> taken = new HashMap<>();
    existingNames.forEach((k, v) -> taken.put(k, new HashSet<>(v)));
    String recoveryName = null;
    if (recovery) {
      Integer recoveryNewId = restored.get(FolderBatch.RECOVERY_OLD_ID);
      Set<String> underRoot =
          taken.computeIfAbsent(SystemFolder.USER_ROOT.id(), k -> new HashSet<>());
      recoveryName =
          recoveryNewId != null ? RECOVERY_FOLDER_NAME : unique(RECOVERY_FOLDER_NAME, underRoot);
      underRoot.add(recoveryName.toLowerCase(Locale.ROOT));
    }
    List<PlannedFolder> ordered = order(byId, parents, taken, restored, issues);
    return new Plan(ordered, issues, recovery, recoveryName);
  }

  private static Parent declaredParent(
      Container c, Map<Integer, Container> byId, List<Issue> issues) {
    int parentId = c.state().folderId();
    SystemFolder system = SystemFolder.byId(parentId);
    if (system != null) {
      return new Parent.System(parentId);
    }
    Container parent = byId.get(parentId);
    if (parent == null) {
      issues.add(
          new Issue(
              c.oldId(),
              Issue.Kind.ORPHAN,
              "parent folder "
                  + parentId
                  + " is not in the backup; moved to "
                  + RECOVERY_FOLDER_NAME));
      return new Parent.Recovery();
    }
    if (parent.type() == ItemType.MOUNTPOINT) {
      issues.add(
          new Issue(
              c.oldId(),
              Issue.Kind.ORPHAN,
              "parent "
                  + parentId
                  + " is a mountpoint, which cannot hold folders; moved to "
                  + RECOVERY_FOLDER_NAME));
      return new Parent.Recovery();
    }
    return new Parent.Planned(parentId);
  }

  /** Follows parent chains without recursion; a chain that comes back on itself is a cycle. */
  private static void breakCycles(
      Map<Integer, Container> byId, Map<Integer, Parent> parents, List<Issue> issues) {
    Map<Integer, Integer> state = new HashMap<>(); // absent: new, 1: on the current path, 2: done
    for (int start : byId.keySet()) {
      List<Integer> path = new ArrayList<>();
      int current = start;
      while (true) {
        Integer s = state.get(current);
        if (s != null && s == 2) {
          break;
        }
        if (s != null && s == 1) {
          List<Integer> cycle = path.subList(path.indexOf(current), path.size());
          int breakAt = cycle.stream().min(Integer::compare).orElseThrow();
          parents.put(breakAt, new Parent.Recovery());
          issues.add(
              new Issue(
                  breakAt,
                  Issue.Kind.CYCLE,
                  "folders "
                      + cycle
                      + " are each other's parents; "
                      + breakAt
                      + " moved to "
                      + RECOVERY_FOLDER_NAME));
          break;
        }
        state.put(current, 1);
        path.add(current);
        if (!(parents.get(current) instanceof Parent.Planned(int parentId))) {
          break;
        }
        current = parentId;
      }
      for (int id : path) {
        state.put(id, 2);
      }
    }
  }

  private static List<PlannedFolder> order(
      Map<Integer, Container> byId,
      Map<Integer, Parent> parents,
      Map<Integer, Set<String>> taken,
      Map<Integer, Integer> restored,
      List<Issue> issues) {
    // Children of each parent, in id order; roots (system and recovery parents) first.
    Map<Parent, List<Integer>> children = new HashMap<>();
    List<Parent> roots = new ArrayList<>();
    for (Container c : byId.values()) {
      Parent p = parents.get(c.oldId());
      List<Integer> list = children.computeIfAbsent(p, k -> new ArrayList<>());
      if (list.isEmpty() && !(p instanceof Parent.Planned)) {
        roots.add(p);
      }
      list.add(c.oldId());
    }
    roots.sort(Comparator.comparingInt(FolderGraph::rootOrder));
    // Parents known only by their planned node get their target id once placed; names under
    // them are tracked by the parent's key.
    Map<Parent, Set<String>> namesByParent = new HashMap<>();
    List<PlannedFolder> ordered = new ArrayList<>(byId.size());
    Deque<Parent> queue = new ArrayDeque<>(roots);
    while (!queue.isEmpty()) {
      Parent parent = queue.removeFirst();
      Set<String> names =
          namesByParent.computeIfAbsent(parent, p -> initialNames(p, taken, restored));
      List<Integer> kids = children.getOrDefault(parent, List.of());
      // Restored children keep their names; claim those first so new ones avoid them.
      for (int id : kids) {
        if (restored.containsKey(id)) {
          names.add(container(byId, id).state().name().toLowerCase(Locale.ROOT));
        }
      }
      for (int id : kids) {
        Container c = container(byId, id);
        boolean done = restored.containsKey(id);
        String name = c.state().name();
        if (!done) {
          String chosen = unique(name, names);
          if (!chosen.equals(name)) {
            issues.add(
                new Issue(
                    id,
                    Issue.Kind.DUPLICATE_NAME,
                    "another folder under the same parent is named \""
                        + TextRules.printable(name)
                        + "\"; restored as \""
                        + TextRules.printable(chosen)
                        + "\""));
          }
          names.add(chosen.toLowerCase(Locale.ROOT));
          name = chosen;
        }
        ordered.add(new PlannedFolder(c, parent, name, done));
        queue.addLast(new Parent.Planned(id));
      }
    }
    return ordered;
  }

  private static Set<String> initialNames(
      Parent parent, Map<Integer, Set<String>> taken, Map<Integer, Integer> restored) {
    Integer targetId =
        switch (parent) {
          case Parent.System(int id) -> id;
          case Parent.Planned(int oldId) -> restored.get(oldId);
          case Parent.Recovery() -> restored.get(FolderBatch.RECOVERY_OLD_ID);
        };
    Set<String> names = targetId == null ? null : taken.get(targetId);
    return names == null ? new HashSet<>() : new HashSet<>(names);
  }

  private static int rootOrder(Parent p) {
    return switch (p) {
      case Parent.System(int id) -> id;
      case Parent.Recovery() -> Integer.MAX_VALUE;
      case Parent.Planned(int oldId) -> oldId;
    };
  }

  /** {@code name}, or {@code name (2)}, {@code name (3)}... the first not in {@code taken}. */
  static String unique(String name, Set<String> taken) {
    if (!taken.contains(name.toLowerCase(Locale.ROOT))) {
      return name;
    }
    for (int n = 2; ; n++) {
      String suffix = " (" + n + ")";
      String base =
          name.length() + suffix.length() > TextRules.MAX_NAME_LENGTH
              ? name.substring(0, TextRules.MAX_NAME_LENGTH - suffix.length())
              : name;
      String candidate = base + suffix;
      if (!taken.contains(candidate.toLowerCase(Locale.ROOT))) {
        return candidate;
      }
    }
  }
}
