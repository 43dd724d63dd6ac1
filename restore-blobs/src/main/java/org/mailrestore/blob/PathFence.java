package org.mailrestore.blob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The directories local files may be read from, held for every file a source opens or lists, at the
 * moment it is opened. The service fences its sources in with its allowed roots; the CLI reads what
 * the administrator points it at ({@link #NONE}).
 *
 * <p>A fenced file is reached from its root one directory at a time, each opened relative to the
 * one before without following a link ({@code openat} with {@code O_NOFOLLOW}): a directory swapped
 * for a link between a check and an open cannot lead outside, because nothing is checked ahead. A
 * link met on the way is read and the walk starts again from a root with what it names, so links
 * that stay inside the roots still work; one that leads outside is refused as if the file were
 * unreadable.
 *
 * <p>The directory a file was opened in (or looked at in) is kept open while it is used ({@link
 * RecentDirectories}) and used for the next files in it while its path still names it: the open
 * descriptor, never a verdict on a path.
 */
public final class PathFence {

  /** No fence: every path is read as it is. */
  public static final PathFence NONE = new PathFence(List.of());

  /** Links followed on one path before it is refused (Linux's own bound). */
  private static final int MAX_LINKS = 40;

  /** A path leading outside the fence; an IOException, so it fails one item like a bad file. */
  public static final class OutsideException extends IOException {
    private static final long serialVersionUID = 1;

    OutsideException(Path path) {
      // The path as asked (inside), never where the link leads.
      super(path + " leads outside the allowed roots (a symbolic link); it is not read");
    }
  }

  private static final Set<OpenOption> READ_NOFOLLOW =
      Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

  private final List<Path> roots;
  private final RecentDirectories recent = new RecentDirectories();

  private PathFence(List<Path> roots) {
    this.roots = roots;
  }

  /**
   * A fence around these directories (compared by their real paths; missing ones allow nothing).
   */
  public static PathFence around(Collection<Path> directories) {
    List<Path> real = new ArrayList<>();
    for (Path d : directories) {
      try {
        real.add(d.toRealPath());
      } catch (IOException e) {
        // a root that does not exist allows nothing
      }
    }
    return directories.isEmpty() ? NONE : new PathFence(List.copyOf(real));
  }

  /** Directories kept open now (for tests). */
  int recentDirectories() {
    return recent.size();
  }

  public boolean isOpen() {
    return this == NONE;
  }

  /**
   * Opens a regular file for reading.
   *
   * @throws OutsideException when it leads outside the fence
   * @throws IOException when it cannot be opened (missing, say)
   */
  public InputStream open(Path file) throws IOException {
    if (this == NONE) {
      return Files.newInputStream(file);
    }
    Path absolute = file.toAbsolutePath().normalize();
    SecureDirectoryStream<Path> dir =
        absolute.getParent() == null ? null : recent.get(absolute.getParent());
    if (dir != null) {
      try {
        return Channels.newInputStream(dir.newByteChannel(absolute.getFileName(), READ_NOFOLLOW));
      } catch (IOException | ClosedDirectoryStreamException e) {
        // a link, a missing file, or the directory just let go: the walk tells which
      }
    }
    return Channels.newInputStream(new Walk(file).channel());
  }

  /**
   * The names of a directory's entries (paths of one element, without the directory: a folder of a
   * million messages is listed in as little memory as its names need), sorted.
   *
   * @throws OutsideException when it leads outside the fence
   * @throws IOException when it cannot be listed (missing, not a directory)
   */
  public List<Path> names(Path directory) throws IOException {
    List<Path> names = new ArrayList<>();
    if (this == NONE) {
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
        stream.forEach(p -> names.add(p.getFileName()));
      }
    } else {
      try (SecureDirectoryStream<Path> dir = new Walk(directory).directory()) {
        dir.forEach(p -> names.add(p.getFileName()));
      }
    }
    names.sort(null);
    return names;
  }

  /** Whether {@code path} is a directory (not a link to one); false when it cannot be looked at. */
  public boolean isDirectory(Path path) {
    try {
      return attributes(path).isDirectory();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether {@code path} is a regular file (not a link to one); false when it cannot be looked at.
   */
  public boolean isRegularFile(Path path) {
    try {
      return attributes(path).isRegularFile();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * What a path is, without following it when it is a link itself.
   *
   * @throws OutsideException when the directories on its way lead outside the fence
   * @throws IOException when it cannot be looked at (missing, say)
   */
  public BasicFileAttributes attributes(Path path) throws IOException {
    return look(path).attributes();
  }

  /**
   * A file looked at ({@link #look}): what it is, and the directory it was looked at in, kept for
   * its open a moment later.
   */
  public static final class Looked {
    private final Path path;
    private final BasicFileAttributes attributes;
    private final SecureDirectoryStream<Path> directory;

    private Looked(
        Path path, BasicFileAttributes attributes, SecureDirectoryStream<Path> directory) {
      this.path = path;
      this.attributes = attributes;
      this.directory = directory;
    }

    /** What the file was when it was looked at, not following it when it is a link itself. */
    public BasicFileAttributes attributes() {
      return attributes;
    }
  }

  /**
   * What a path is, as {@link #attributes}, for a file about to be opened ({@link #open(Looked)}):
   * where the fence walks, the open then uses the directory the file was just looked at in, so a
   * message read in the service costs one check that a kept directory's path still names it, not
   * two.
   */
  public Looked look(Path path) throws IOException {
    if (this == NONE) {
      return new Looked(
          path,
          Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS),
          null);
    }
    Path absolute = path.toAbsolutePath().normalize();
    if (roots.contains(absolute)) {
      return new Looked(path, Files.readAttributes(absolute, BasicFileAttributes.class), null);
    }
    Path parent = absolute.getParent();
    SecureDirectoryStream<Path> kept = recent.get(parent);
    if (kept != null) {
      try {
        return new Looked(path, attributes(kept, absolute.getFileName()), kept);
      } catch (IOException | ClosedDirectoryStreamException e) {
        // missing, or the directory just let go: the walk tells which
      }
    }
    Walk walk = new Walk(parent);
    SecureDirectoryStream<Path> dir = walk.directory();
    boolean keep = false;
    try {
      BasicFileAttributes attributes = attributes(dir, absolute.getFileName());
      keep = recent.keep(walk.path, dir);
      return new Looked(path, attributes, null);
    } finally {
      if (!keep) {
        dir.close();
      }
    }
  }

  /**
   * Opens a file looked at a moment ago: relative to the directory it was looked at in while that
   * is still open (no link followed), else as {@link #open(Path)} does.
   */
  public InputStream open(Looked looked) throws IOException {
    if (looked.directory != null) {
      try {
        return Channels.newInputStream(
            looked.directory.newByteChannel(looked.path.getFileName(), READ_NOFOLLOW));
      } catch (IOException | ClosedDirectoryStreamException e) {
        // a link, a missing file, or the directory let go since: the walk tells which
      }
    }
    return open(looked.path);
  }

  private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .readAttributes();
  }

  /** One path walked from its root, directory by directory, never through a link. */
  private final class Walk {
    private final Path asked;
    private Path path;
    private int links;

    Walk(Path asked) {
      this.asked = asked;
      this.path = asked.toAbsolutePath().normalize();
    }

    /** The file, opened at the end of the walk. */
    SeekableByteChannel channel() throws IOException {
      while (true) {
        Path root = rootOf(path);
        if (path.equals(root)) {
          throw new FileSystemException(asked.toString(), null, "is a directory");
        }
        SecureDirectoryStream<Path> parent = descend(root, root.relativize(path.getParent()));
        if (parent == null) {
          continue; // a link on the way: walk again from the start
        }
        boolean keep = false;
        try {
          Path name = path.getFileName();
          if (isLink(parent, name)) {
            follow(path.getParent(), name, null);
            continue;
          }
          SeekableByteChannel channel = parent.newByteChannel(name, READ_NOFOLLOW);
          keep = recent.keep(path.getParent(), parent); // reached without a link
          return channel;
        } finally {
          if (!keep) {
            parent.close();
          }
        }
      }
    }

    /** The directory, opened at the end of the walk. */
    SecureDirectoryStream<Path> directory() throws IOException {
      while (true) {
        Path root = rootOf(path);
        SecureDirectoryStream<Path> dir = descend(root, root.relativize(path));
        if (dir != null) {
          return dir;
        }
      }
    }

    /**
     * Opens each directory of {@code rest} below {@code root} in turn; null when a link was met
     * (and {@link #path} now names what it leads to).
     */
    private SecureDirectoryStream<Path> descend(Path root, Path rest) throws IOException {
      SecureDirectoryStream<Path> current = openRoot(root);
      Path walked = root;
      try {
        for (int i = 0; rest.toString().length() > 0 && i < rest.getNameCount(); i++) {
          Path name = rest.getName(i);
          if (isLink(current, name)) {
            follow(walked, name, walked.resolve(rest.subpath(i, rest.getNameCount())));
            current.close();
            return null;
          }
          SecureDirectoryStream<Path> next;
          try {
            next = current.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
          } catch (NotDirectoryException e) {
            throw new NotDirectoryException(asked.toString());
          }
          current.close();
          current = next;
          walked = walked.resolve(name);
        }
        return current;
      } catch (IOException | RuntimeException e) {
        current.close();
        throw e;
      }
    }

    /**
     * Reads the link {@code name} of {@code directory} and makes {@link #path} what it names, with
     * what of the path lay beyond it ({@code whole} minus the link; null when the link ends it).
     */
    private void follow(Path directory, Path name, Path whole) throws IOException {
      if (++links > MAX_LINKS) {
        throw new FileSystemException(asked.toString(), null, "too many levels of symbolic links");
      }
      Path link = directory.resolve(name);
      Path target = directory.resolve(Files.readSymbolicLink(link)).normalize();
      Path beyond = whole == null ? null : link.relativize(whole);
      path = beyond == null || beyond.toString().isEmpty() ? target : target.resolve(beyond);
      rootOf(path); // refused now rather than after more links
    }

    private Path rootOf(Path p) throws OutsideException {
      for (Path root : roots) {
        if (p.startsWith(root)) {
          return root;
        }
      }
      throw new OutsideException(asked);
    }
  }

  private static boolean isLink(SecureDirectoryStream<Path> dir, Path name) throws IOException {
    return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .readAttributes()
        .isSymbolicLink();
  }

  @SuppressWarnings("unchecked")
  private static SecureDirectoryStream<Path> openRoot(Path root) throws IOException {
    DirectoryStream<Path> stream = Files.newDirectoryStream(root);
    if (stream instanceof SecureDirectoryStream<?> secure) {
      return (SecureDirectoryStream<Path>) secure;
    }
    stream.close();
    throw new IOException(
        "this platform cannot open files relative to a directory without following links;"
            + " local sources need Linux (or another system with openat) when roots are set");
  }
}
