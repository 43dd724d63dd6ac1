package org.mailrestore.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The benchmarks' other programs (peers, tar, chmod) run to their end. */
final class Processes {

  private Processes() {}

  /** Runs a command to its end; its output; an exception naming it when it fails. */
  static String run(List<String> command, Path dir) throws IOException, InterruptedException {
    return run(command, dir, Map.of());
  }

  /** The same, with more environment variables. */
  static String run(List<String> command, Path dir, Map<String, String> environment)
      throws IOException, InterruptedException {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    b.environment().putAll(environment);
    if (dir != null) {
      b.directory(dir.toFile());
    }
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }

  /** Lets every user read, write and traverse everything under {@code dir}. */
  static void openToAll(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.forEach(p -> {
        p.toFile().setReadable(true, false);
        p.toFile().setWritable(true, false);
        p.toFile().setExecutable(true, false);
      });
    }
  }

  /**
   * Clock ticks (USER_HZ, 100 on Linux) of CPU a process of this machine used so far, from {@code
   * /proc/<pid>/stat}; with {@code withChildren}, also its reaped children's; 0 when it has ended.
   */
  static long cpuTicks(long pid, boolean withChildren) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // fields 14-17 of proc(5): utime stime cutime cstime (here from index 11)
      long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
      return withChildren ? t + Long.parseLong(f[13]) + Long.parseLong(f[14]) : t;
    } catch (IOException | RuntimeException e) {
      return 0; // it ended in between
    }
  }

  /**
   * Clock ticks of CPU a process and all its descendants used so far, the ended ones too (a server
   * that forks a process per connection, as Cyrus's {@code master}).
   */
  static long cpuTicksOfTree(long pid) {
    long t = cpuTicks(pid, true);
    for (ProcessHandle child :
        ProcessHandle.of(pid).map(p -> p.children().toList()).orElse(java.util.List.of())) {
      t += cpuTicksOfTree(child.pid());
    }
    return t;
  }

  /** Clock ticks per second in {@link #cpuTicks}. */
  static final double TICKS_PER_SECOND = 100.0;
}
