package org.mailrestore.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a server instance of our own (the tests' Dovecot and Cyrus, the benchmarks' Dovecot) needs
 * to start: a free port, a wait for it to listen, a command run to its end.
 */
public final class LocalDaemons {

  private LocalDaemons() {}

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  public static void awaitPort(int port, Path log) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", ie);
        }
      }
    }
    String tail = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no log)";
    throw new IOException("the server did not listen on " + port + " within 30 s: " + tail);
  }

  /** Runs a command to its end; its output goes to a file, as a daemon it starts keeps it open. */
  public static void run(List<String> command) throws IOException {
    output(command, null);
  }

  /**
   * Runs a command to its end with {@code input} (or nothing) on its standard input; returns what
   * it wrote (standard output and error together).
   *
   * @throws IOException when it fails, with what it wrote
   */
  public static String output(List<String> command, byte[] input) throws IOException {
    Path output = Files.createTempFile("mailrestore-command-", ".log");
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      try (var stdin = p.getOutputStream()) {
        if (input != null) {
          stdin.write(input);
        }
      }
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException(
            String.join(" ", command) + " failed: " + Files.readString(output).strip());
      }
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
