package org.mailrestore.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where tests and the servers they start keep their files. The build asks for {@code memory}
 * (system property {@code mailrestore.test.scratch}): a directory under {@code /dev/shm} where the
 * machine has it. On a virtual disk every fsync costs CPU (a VM exit per flush) that two cores
 * running the tests need; no test crashes the machine, so durability across a power loss is not
 * what any of them checks (a SIGKILL leaves the page cache as it was). Elsewhere (benchmarks, a
 * test run from an IDE) it is the JVM's temporary directory. {@code MAILRESTORE_TEST_SCRATCH}
 * overrides either: {@code memory}, {@code disk}, or a directory. See docs/decisions/0039.
 *
 * <p>Each JVM works in a directory of its own, removed when it exits; the directories of JVMs that
 * died without removing theirs are removed by the next one, so memory is not lost to old runs.
 */
public final class ScratchSpace {

  private static final Path SHM = Path.of("/dev/shm");
  private static final Path ROOT = create();

  private ScratchSpace() {}

  /** This JVM's scratch directory: readable and traversable by the servers' own users. */
  public static Path root() {
    return ROOT;
  }

  /** A new directory in this JVM's scratch space, named with {@code prefix}. */
  public static Path directory(String prefix) throws IOException {
    return Files.createTempDirectory(ROOT, prefix);
  }

  /** A new file in this JVM's scratch space. */
  public static Path file(String prefix, String suffix) throws IOException {
    return Files.createTempFile(ROOT, prefix, suffix);
  }

  private static Path create() {
    String choice = System.getenv("MAILRESTORE_TEST_SCRATCH");
    if (choice == null || choice.isBlank()) {
      choice = System.getProperty("mailrestore.test.scratch", "disk");
    }
    Path base;
    if (choice.equals("memory") && Files.isDirectory(SHM) && Files.isWritable(SHM)) {
      base = SHM.resolve("mailrestore-tests");
    } else if (choice.equals("memory") || choice.equals("disk")) {
      base = Path.of(System.getProperty("java.io.tmpdir")).resolve("mailrestore-tests");
    } else {
      base = Path.of(choice);
    }
    try {
      Files.createDirectories(base);
      openToAll(base);
      removeLeftovers(base);
      Path mine =
          Files.createDirectories(base.resolve(String.valueOf(ProcessHandle.current().pid())));
      openToAll(mine);
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> removeWithItsDaemons(mine), "scratch-cleanup"));
      return mine;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the tests' scratch directory under " + base, e);
    }
  }

  /** Directories named by the pid of a JVM that is no longer running. */
  private static void removeLeftovers(Path base) throws IOException {
    List<Path> entries;
    try (Stream<Path> list = Files.list(base)) {
      entries = list.toList();
    }
    for (Path entry : entries) {
      String name = entry.getFileName().toString();
      if (name.matches("\\d{1,18}")
          && ProcessHandle.of(Long.parseLong(name)).map(p -> !p.isAlive()).orElse(true)) {
        removeWithItsDaemons(entry);
      }
    }
  }

  /**
   * Stops the servers a test JVM started with their files here (a Dovecot, a Cyrus, a MariaDB,
   * named by their configuration or data path), then deletes the tree. Their own stop hooks may run
   * after this one has deleted their configuration, or not at all when the JVM was killed.
   */
  private static void removeWithItsDaemons(Path dir) {
    String path = dir.toString() + "/";
    List<ProcessHandle> daemons =
        ProcessHandle.allProcesses()
            .filter(p -> p.pid() != ProcessHandle.current().pid())
            .filter(p -> p.info().commandLine().map(c -> c.contains(path)).orElse(false))
            .toList();
    daemons.forEach(ProcessHandle::destroy);
    for (ProcessHandle p : daemons) {
      try {
        p.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        p.destroyForcibly();
      }
    }
    deleteTree(dir);
  }

  private static void openToAll(Path dir) throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Deletes a tree as far as it can: a file another process still writes is left. */
  public static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(p -> {
            try {
              Files.deleteIfExists(p);
            } catch (IOException e) {
              // left for the next JVM's clean-up
            }
          });
    } catch (IOException | UncheckedIOException e) {
      // the same
    }
  }
}
