package org.mailrestore.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mailrestore backup ...}: work with backups without a mailstore. */
@Command(
    name = "backup",
    mixinStandardHelpOptions = true,
    description = "Generate and inspect backups (format v1).",
    subcommands = {BackupCommand.Generate.class, BackupCommand.Inspect.class})
final class BackupCommand {

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = "Write a synthetic backup, deterministically from a seed.")
  static final class Generate implements Callable<Integer> {
    @Option(names = "--out", required = true, description = "An empty or new directory")
    Path out;

    @Mixin GeneratorOptions generator;

    @Override
    public Integer call() throws IOException {
      BackupGenerator.Report report = BackupGenerator.generate(generator.spec(), out);
      System.out.printf(
          "generated %s: %s accounts, %s items (%s content, %s live), %s blobs, %s in %.1f s%n",
          out,
          Report.count(report.accounts()),
          Report.count(report.items()),
          Report.count(report.contentItems()),
          Report.count(report.liveContentItems()),
          Report.count(report.blobsWritten()),
          Report.bytes(report.blobBytes()),
          report.elapsed().toMillis() / 1000.0);
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "inspect",
      mixinStandardHelpOptions = true,
      description = "Read a backup and say what it holds, and what cannot be read.")
  static final class Inspect implements Callable<Integer> {
    @Parameters(paramLabel = "BACKUP", description = "The backup directory")
    Path backup;

    @Override
    public Integer call() throws IOException {
      int problems = 0;
      try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
        var m = reader.manifest();
        System.out.printf(
            "%s: format %s %s, server %s, created %s%n",
            backup, m.format(), m.version(), m.serverId(), m.createdAt());
        System.out.printf(
            "  %d domains, %d classes of service, %d lists, %d accounts%n",
            reader.domains().size(),
            reader.classesOfService().size(),
            reader.distributionLists().size(),
            reader.accountIds().size());
        for (String id : reader.accountIds()) {
          switch (reader.account(id)) {
            case Parsed.Ok<Account>(Account a, String location) -> {
              long items = 0;
              long bad = 0;
              try (ItemStream s = reader.items(id, java.util.EnumSet.allOf(ItemType.class))) {
                while (s.hasNext()) {
                  if (s.next() instanceof ItemEntry.Undecodable u) {
                    bad++;
                    System.out.printf("  ! %s: %s%n", u.location(), u.reason());
                  } else {
                    items++;
                  }
                }
              }
              problems += (int) Math.min(Integer.MAX_VALUE, bad);
              System.out.printf(
                  "  %-40s %-8s %s items%s%n",
                  a.name(),
                  reader.itemLayout(id) == null
                      ? "-"
                      : reader.itemLayout(id).name().toLowerCase(java.util.Locale.ROOT),
                  Report.count(items),
                  bad > 0 ? ", " + bad + " unreadable" : "");
            }
            case Parsed.Failed<Account>(String location, String reason) -> {
              problems++;
              System.out.printf("  ! %s: %s%n", location, reason);
            }
          }
        }
      }
      return problems == 0 ? ExitCodes.OK : ExitCodes.PARTIAL;
    }
  }
}
