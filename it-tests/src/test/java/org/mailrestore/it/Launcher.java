package org.mailrestore.it;

import java.nio.file.Files;
import java.nio.file.Path;
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
    // The fat jar as it runs alone, the embedded database's binaries added from beside it.
    return List.of(
        java.toString(),
        "--enable-native-access=ALL-UNNAMED",
        "-Dloader.path=" + jar.resolveSibling("embedded-db"),
        "-jar",
        jar.toString());
  }
}
