package org.mailrestore.cli;

import java.io.PrintStream;
import org.mailrestore.mail.Json;
import picocli.CommandLine.Option;

/**
 * {@code --json} for the commands that work locally: their result as one JSON document, the only
 * thing on standard output (what goes to people, such as progress, then goes to standard error).
 */
final class JsonOutput {

  @Option(
      names = "--json",
      description =
          "Print the result as JSON, alone on standard output (progress on standard error)")
  boolean json;

  /** Where lines for people go: standard error when the output is JSON. */
  PrintStream people() {
    return json ? System.err : System.out;
  }

  void print(Object result) {
    System.out.println(Json.PRETTY.writeValueAsString(result));
  }
}
