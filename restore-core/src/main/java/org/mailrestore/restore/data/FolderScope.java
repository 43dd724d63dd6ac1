package org.mailrestore.restore.data;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.mail.SystemFolder;

/**
 * The folders whose content a partial restore takes: those named (by id in the source, or by path
 * such as {@code /Inbox/Projects}, case ignored) and every folder below them.
 */
final class FolderScope {

  private FolderScope() {}

  static Set<Integer> of(List<FolderGraph.Container> containers, Set<String> selectors) {
    Map<Integer, Integer> parents = new HashMap<>();
    Map<Integer, String> names = new HashMap<>();
    for (SystemFolder f : SystemFolder.values()) {
      parents.put(f.id(), f.parentId());
      names.put(f.id(), f.folderName());
    }
    for (FolderGraph.Container c : containers) {
      parents.put(c.oldId(), c.state().folderId());
      names.put(c.oldId(), c.state().name());
    }
    Map<Integer, List<Integer>> children = new HashMap<>();
    parents.forEach(
        (id, parent) -> children.computeIfAbsent(parent, k -> new ArrayList<>()).add(id));
    Set<Integer> scope = new HashSet<>();
    Deque<Integer> todo = new ArrayDeque<>();
    for (Integer id : parents.keySet()) {
      if (selectors.contains(String.valueOf(id))
          || selectors.contains(path(id, parents, names))
          || selectors.contains(path(id, parents, names).substring(1))) {
        todo.add(id);
      }
    }
    while (!todo.isEmpty()) {
      int id = todo.pop();
      if (scope.add(id)) {
        todo.addAll(children.getOrDefault(id, List.of()));
      }
    }
    return scope;
  }

  /** {@code /inbox/projects}: the names from below the user's root, lower case. */
  private static String path(int id, Map<Integer, Integer> parents, Map<Integer, String> names) {
    List<String> parts = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    Integer at = id;
    while (at != null
        && at != SystemFolder.USER_ROOT.id()
        && at != SystemFolder.ROOT.id()
        && seen.add(at)) {
      parts.add(0, String.valueOf(names.get(at)));
      at = parents.get(at);
    }
    return ("/" + String.join("/", parts)).toLowerCase(Locale.ROOT);
  }
}
