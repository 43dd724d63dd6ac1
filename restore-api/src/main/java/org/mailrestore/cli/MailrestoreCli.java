package org.mailrestore.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mailrestore} command. */
@Command(
    name = "mailrestore",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "Restores mailboxes from backups into a Zimbra-style mailstore.",
    subcommands = {
      DemoCommand.class,
      BackupCommand.class,
      RestoreCommand.class,
      VerifyCommand.class,
      ExportCommand.class,
      ServeCommand.class,
      CommandLine.HelpCommand.class
    })
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

  /** The command line, with the installed source, target and export kinds' commands and flags. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new MailrestoreCli());
    ExportCommand.addFormats(cli.getSubcommands().get("export"));
    KindFlags.installAll(cli);
    return cli;
  }

  /** Runs the command line and returns its exit code. */
  public static int execute(String... args) {
    return commandLine()
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
