package org.mailrestore.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How to start the CLI as a process of its own: through the repository's {@code ./mailrestore}
 * launcher, as a user runs it (the jar extracted to a plain class path, the JVM flags of decision
 * 0019, the start-up cache on JDK 25+). The build packages the jar and trains the cache before
 * these tests run (it-tests' pom), so no test pays for either.
 */
final class Launcher {

  private Launcher() {}

  /** The command that runs {@code mailrestore}; arguments follow it. */
  static List<String> command() {
    Path jar = Path.of(System.getProperty("mailrestore.cli.jar"));
    if (!Files.exists(jar)) {
      throw new IllegalStateException("the packaged CLI is missing: " + jar);
    }
    Path launcher = jar.toAbsolutePath().getParent().getParent().getParent().resolve("mailrestore");
    if (!Files.isExecutable(launcher)) {
      throw new IllegalStateException("the launcher is missing: " + launcher);
    }
    return List.of(launcher.toString());
  }

  /**
   * The environment that gives the launched JVM a maximum heap (such as {@code 96m}) on top of the
   * launcher's own flags; nothing for null.
   */
  static Map<String, String> heap(String maxHeap) {
    return maxHeap == null ? Map.of() : Map.of("MAILRESTORE_JAVA_OPTS", "-Xmx" + maxHeap);
  }
}
