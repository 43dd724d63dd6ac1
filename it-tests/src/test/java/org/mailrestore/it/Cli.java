package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mailrestore.cli.MailrestoreCli;
import org.mailrestore.testkit.TestDatabase;

/** Runs the CLI in this JVM and captures what it prints. */
final class Cli {

  /** A line {@code restore start} and {@code restore run} print first: the operation id. */
  static final Pattern OPERATION = Pattern.compile("(?m)^operation ([0-9a-f-]{36})$");

  /** The exit code, standard output and standard error. */
  record Result(int exitCode, String out, String err) {
    /** The operation id the command printed. */
    String operation() {
      Matcher m = OPERATION.matcher(out);
      assertThat(m.find()).as("an operation id in:%n%s%s", out, err).isTrue();
      return m.group(1);
    }
  }

  private Cli() {}

  /** The options that name a test's database. */
  static List<String> database(TestDatabase database) {
    return List.of("--jdbc-url", database.jdbcUrl(), "--db-user", database.server().user());
  }

  /** The options that name a test's mailstore: its database and a volume directory. */
  static List<String> store(TestDatabase database, Path volume) {
    List<String> args = new ArrayList<>(database(database));
    args.addAll(List.of("--volume", volume.toString()));
    return args;
  }

  /** {@code args}, then {@code more}. */
  static String[] args(List<String> args, List<String> more) {
    List<String> all = new ArrayList<>(args);
    all.addAll(more);
    return all.toArray(String[]::new);
  }

  /** {@code verify} of a backup against a test's mailstore. */
  static Result verify(Path backup, TestDatabase database, Path volume) {
    return run(args(List.of("verify", "--backup", backup.toString()), store(database, volume)));
  }

  static synchronized Result run(String... args) {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream captureOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream captureErr = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(captureOut);
      System.setErr(captureErr);
      int code = MailrestoreCli.execute(args);
      return new Result(
          code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
  }
}
