package org.mailrestore.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./benchmark}: measurements next to the limits of the same resources, on this machine. */
@Command(
    name = "benchmark",
    mixinStandardHelpOptions = true,
    description =
        "Benchmarks. Each one measures mailrestore next to the limit of the same resource, in"
            + " the same run, and prints a table (and JSON with --json).",
    subcommands = {
      WriterCommand.class,
      BlobsCommand.class,
      RestoreCommand.class,
      S3RestoreCommand.class,
      ArchiveCommand.class,
      PeerCommand.class,
      ImapCommand.class,
      LdapCommand.class,
      DavCommand.class,
      ConsoleCommand.class,
      MemoryCommand.class,
      SuiteCommand.class,
      RestoreChildCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Benchmarks implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new Benchmarks()).execute(args));
  }
}
