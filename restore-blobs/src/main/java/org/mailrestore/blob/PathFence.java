package org.mailrestore.blob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The directories local files may be read from, checked for every file a source opens or lists, not
 * just its top directory: a symbolic link (or a directory of links) inside leading outside is
 * refused as if the file were unreadable. The service fences its sources in with its allowed roots;
 * the CLI reads what the administrator points it at ({@link #NONE}).
 *
 * <p>A file whose directory was checked already costs one {@code lstat}; only links are resolved.
 */
public final class PathFence {

  /** No fence: every path is read as it is. */
  public static final PathFence NONE = new PathFence(List.of());

  private static final int MAX_CACHED_DIRECTORIES = 100_000;

  /** A path leading outside the fence; an IOException, so it fails one item like a bad file. */
  public static final class OutsideException extends IOException {
    private static final long serialVersionUID = 1;

    OutsideException(Path path) {
      // The path as asked (inside), never where the link leads.
      super(path + " leads outside the allowed roots (a symbolic link); it is not read");
    }
  }

  private final List<Path> roots;
  private final Map<Path, Boolean> checkedDirectories = new ConcurrentHashMap<>();

  private PathFence(List<Path> roots) {
    this.roots = roots;
  }

  /**
   * A fence around these directories (compared by their real paths; missing ones allow nothing).
   */
  public static PathFence around(Collection<Path> directories) {
    List<Path> real =
        directories.stream()
            .map(d -> {
              try {
                return d.toRealPath();
              } catch (IOException e) {
                return null;
              }
            })
            .filter(p -> p != null)
            .toList();
    return directories.isEmpty() ? NONE : new PathFence(real);
  }

  public boolean isOpen() {
    return this == NONE;
  }

  /**
   * Returns {@code path} when it lies inside the fence once links are resolved.
   *
   * @throws OutsideException when it leads outside
   * @throws IOException when it cannot be looked at (missing, say)
   */
  public Path check(Path path) throws IOException {
    if (this == NONE) {
      return path;
    }
    Path absolute = path.toAbsolutePath().normalize();
    Path parent = absolute.getParent();
    boolean link =
        Files.readAttributes(absolute, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
            .isSymbolicLink();
    if (!link && parent != null && checkedDirectories.containsKey(parent)) {
      return path; // a plain entry of a directory known to be inside
    }
    Path real = absolute.toRealPath();
    if (!inside(real)) {
      throw new OutsideException(path);
    }
    // Not a link: the real path's parent is the directory's own, inside unless it is a root's.
    if (!link && parent != null && inside(real.getParent())) {
      if (checkedDirectories.size() > MAX_CACHED_DIRECTORIES) {
        checkedDirectories.clear();
      }
      checkedDirectories.put(parent, Boolean.TRUE);
    }
    return path;
  }

  private boolean inside(Path real) {
    for (Path root : roots) {
      if (real.startsWith(root)) {
        return true;
      }
    }
    return false;
  }
}
