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
      CommandLine.HelpCommand.class
    })
public final class MailrestoreCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line and returns its exit code. */
  public static int execute(String... args) {
    return new CommandLine(new MailrestoreCli())
        .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
          commandLine.getErr().println("mailrestore: " + e.getMessage());
          return ExitCodes.FAILED;
        })
        .execute(args);
  }
}
