package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/** The packaged CLI running as a process of its own, its output collected as it comes. */
final class CliProcess {

  private final Process process;
  private final StringBuffer output = new StringBuffer();
  private final CompletableFuture<String> operation = new CompletableFuture<>();
  private final CompletableFuture<Void> drained = new CompletableFuture<>();

  private CliProcess(Process process) {
    this.process = process;
    Thread.ofPlatform()
        .daemon()
        .name("cli-output-" + process.pid())
        .start(() -> {
          try (BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
              output.append(line).append('\n');
              Matcher m = Cli.OPERATION.matcher(line);
              if (m.matches()) {
                operation.complete(m.group(1));
              }
            }
            operation.completeExceptionally(
                new IllegalStateException("the CLI printed no operation id:\n" + output));
          } catch (IOException e) {
            operation.completeExceptionally(e);
          } finally {
            drained.complete(null);
          }
        });
  }

  static CliProcess start(String dbPassword, List<String> args) {
    return start(dbPassword, null, args);
  }

  /** With a maximum heap for the CLI's JVM (e.g. {@code 96m}); null for the default. */
  static CliProcess start(String dbPassword, String maxHeap, List<String> args) {
    return start(dbPassword, maxHeap, Map.of(), args);
  }

  /** With more environment variables (such as an S3 profile's {@code MAILRESTORE_S3_*}). */
  static CliProcess start(
      String dbPassword, String maxHeap, Map<String, String> environment, List<String> args) {
    List<String> command = new ArrayList<>(Launcher.command());
    command.addAll(args);
    return launch(dbPassword, maxHeap, environment, command);
  }

  /** On one of a test's {@link Hosts}. */
  static CliProcess startOn(Hosts hosts, String host, List<String> args) {
    return startOn(hosts, host, Map.of(), args);
  }

  /** On one of a test's {@link Hosts}, with more environment variables. */
  static CliProcess startOn(
      Hosts hosts, String host, Map<String, String> environment, List<String> args) {
    List<String> command = new ArrayList<>(Launcher.command());
    command.addAll(args);
    return launch("", null, environment, hosts.on(host, command));
  }

  private static CliProcess launch(
      String dbPassword, String maxHeap, Map<String, String> environment, List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("MAILRESTORE_DB_PASSWORD", dbPassword);
    builder.environment().putAll(Launcher.heap(maxHeap));
    builder.environment().putAll(environment);
    try {
      return new CliProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The operation id the restore printed first. */
  String operation() throws Exception {
    return operation.get(60, TimeUnit.SECONDS);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL on Unix: no shutdown hook, no cleanup, as in a crash or an OOM kill. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("killed").isTrue();
  }

  /**
   * SIGSTOP: the process stops where it is, as a VM paused by its host or a process stalled in a
   * long GC does, its sockets open; {@link #resume} lets it go on as if nothing happened.
   */
  void pause() throws Exception {
    signal("-STOP");
  }

  /** SIGCONT, after {@link #pause}. */
  void resume() throws Exception {
    signal("-CONT");
  }

  private void signal(String which) throws Exception {
    Process kill =
        new ProcessBuilder("kill", which, String.valueOf(process.pid())).inheritIO().start();
    assertThat(kill.waitFor()).as("kill %s %d", which, process.pid()).isZero();
  }

  /** SIGTERM on Unix: what a service manager or a container runtime sends to stop. */
  void terminate() {
    // Through the handle: Process.destroy() would also close the output this test still reads.
    process.toHandle().destroy();
  }

  /** Waits for the end and for all its output, and returns the exit code. */
  int waitFor(int seconds) throws Exception {
    assertThat(process.waitFor(seconds, TimeUnit.SECONDS))
        .as("exited in %d s; output so far:%n%s", seconds, output)
        .isTrue();
    drained.get(10, TimeUnit.SECONDS);
    return process.exitValue();
  }

  String output() {
    return output.toString();
  }
}
