package org.mailrestore.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mailrestore} command. Its commands are listed in {@link CommandTree}. */
@Command(
    name = "mailrestore",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Restores mailboxes from backups into a Zimbra-style mailstore.")
public final class MailrestoreCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    int code = execute(args);
    if (code != RUNS_ON) {
      System.exit(code);
    }
  }

  /** What a command returns that keeps running after main returns (the service). */
  static final int RUNS_ON = Integer.MIN_VALUE;

  /**
   * The command line for {@code args} (the commands they name, {@link CommandTree}; every command
   * when there are none), with the installed source, target and export kinds' commands and flags.
   */
  static CommandLine commandLine(String... args) {
    CommandLine cli = CommandTree.forArguments(List.of(args));
    KindFlags.installAll(cli);
    return cli;
  }

  /** Runs the command line and returns its exit code. */
  public static int execute(String... args) {
    return commandLine(args)
        .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
          commandLine.getErr().println("mailrestore: " + e.getMessage());
          if (e instanceof ApiClient.ApiException api) {
            return api.exitCode();
          }
          return e instanceof IllegalArgumentException ? ExitCodes.USAGE : ExitCodes.FAILED;
        })
        .execute(args);
  }
}
