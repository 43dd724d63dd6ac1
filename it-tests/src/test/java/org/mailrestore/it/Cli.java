package org.mailrestore.it;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.mailrestore.cli.MailrestoreCli;

/** Runs the CLI in this JVM and captures what it prints. */
final class Cli {

  record Result(int exitCode, String out) {}

  private Cli() {}

  static synchronized Result run(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      int code = MailrestoreCli.execute(args);
      capture.flush();
      return new Result(code, buffer.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(original);
    }
  }
}
