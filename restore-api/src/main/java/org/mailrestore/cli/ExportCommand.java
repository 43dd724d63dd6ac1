package org.mailrestore.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.Restores;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mailrestore export <format>}: write restored mailboxes back out, one subcommand per
 * installed export format.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Write restored mailboxes out of the mailstore, every message byte for byte.")
final class ExportCommand {

  /** Adds a subcommand per installed export format. */
  static void addFormats(CommandLine export) {
    for (ExportFormat format : ExportFormat.installed().all()) {
      export.addSubcommand(
          format.name(), new CommandLine(new Format(format)).setCommandName(format.name()));
      export
          .getSubcommands()
          .get(format.name())
          .getCommandSpec()
          .usageMessage()
          .description(
              "Export "
                  + (format.singleAccount() ? "one account" : "accounts")
                  + ": "
                  + format.description()
                  + ".");
    }
  }

  /** One export format's command. */
  @Command(mixinStandardHelpOptions = true)
  static final class Format implements Callable<Integer> {
    private final ExportFormat format;

    @Option(
        names = "--account",
        required = true,
        description = "An account's address; repeatable where the format holds several")
    List<String> accounts;

    @Option(
        names = "--out",
        required = true,
        description =
            "Where to write: a new (or empty) directory, or a new file, as the format takes")
    Path out;

    @Mixin StoreOptions store;

    @Mixin JsonOutput output;

    @Mixin ReadProgress progress;

    Format(ExportFormat format) {
      this.format = format;
    }

    @Override
    public Integer call() throws Exception {
      if (format.singleAccount() && accounts.size() != 1) {
        throw new IllegalArgumentException(
            "export " + format.name() + " writes one account: give --account once");
      }
      try (Restores restores = store.open()) {
        ReadCounter counter = new ReadCounter();
        ExportReport report;
        try (var shown = progress.start("export", counter, output.people())) {
          report = restores.export(format, null, accounts, out, counter);
        }
        if (output.json) {
          output.print(report);
          return report.problems().isEmpty() ? ExitCodes.OK : ExitCodes.PARTIAL;
        }
        return print(report, out);
      }
    }
  }

  static int print(ExportReport r, Path out) {
    System.out.printf(
        "exported %s to %s: %s folders, %s items, %s%s%n",
        String.join(", ", r.accounts()),
        out.toAbsolutePath().normalize(),
        Report.count(r.folders()),
        Report.count(r.items()),
        Report.bytes(r.bytes()),
        r.skippedItems() > 0
            ? ", " + Report.count(r.skippedItems()) + " items left out (not messages)"
            : "");
    r.problems().forEach(p -> System.out.println("  problem: " + p));
    return r.problems().isEmpty() ? ExitCodes.OK : ExitCodes.PARTIAL;
  }
}
