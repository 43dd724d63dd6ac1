package org.mailrestore.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start the packaged CLI as a process of its own. */
final class Launcher {

  private Launcher() {}

  static List<String> javaJar() {
    Path jar = Path.of(System.getProperty("mailrestore.cli.jar"));
    if (!Files.exists(jar)) {
      throw new IllegalStateException("the packaged CLI is missing: " + jar);
    }
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    // The fat jar as it runs alone, the embedded database's binaries added from beside it, with
    // the JVM flags the launcher gives a command (decision 0019: the serial collector, the client
    // compiler, no wait at exit), so that the command measured is the one a user runs.
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
    if (Runtime.version().feature() >= 25) {
      command.add("-XX:UserThreadWaitAttemptsAtExit=0");
    }
    command.addAll(
        List.of("-Dloader.path=" + jar.resolveSibling("embedded-db"), "-jar", jar.toString()));
    return command;
  }
}
