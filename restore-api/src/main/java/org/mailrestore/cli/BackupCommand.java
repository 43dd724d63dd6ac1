package org.mailrestore.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/**
 * {@code mailrestore backup ...}: work with backups without a mailstore. Its commands are listed in
 * {@link CommandTree}.
 */
@Command(
    name = "backup",
    mixinStandardHelpOptions = true,
    description = "Generate and inspect backups (format v1).")
final class BackupCommand {

  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = "Write a synthetic backup, deterministically from a seed.")
  static final class Generate implements Callable<Integer> {
    @Option(names = "--out", required = true, description = "An empty or new directory")
    Path out;

    @Mixin GeneratorOptions generator;

    @Mixin JsonOutput output;

    @Override
    public Integer call() throws IOException {
      BackupGenerator.Report report = BackupGenerator.generate(generator.spec(), out);
      if (output.json) {
        output.print(report);
        return ExitCodes.OK;
      }
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

    @Mixin JsonOutput output;

    /** What a backup holds, as {@code --json} prints it. */
    record Inspection(
        String backup,
        String format,
        String version,
        String serverId,
        String createdAt,
        int domains,
        int classesOfService,
        int lists,
        List<AccountLine> accounts,
        List<String> problems) {}

    /** One account: its item layout and how many items read and did not. */
    record AccountLine(String account, String layout, long items, long unreadable) {}

    @Override
    public Integer call() throws IOException {
      List<AccountLine> accounts = new ArrayList<>();
      List<String> problems = new ArrayList<>();
      Inspection inspection;
      try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
        for (String id : reader.accountIds()) {
          switch (reader.account(id)) {
            case Parsed.Ok<Account>(Account a, String location) -> {
              long items = 0;
              long bad = 0;
              String layout;
              try (ItemStream s = reader.items(id, java.util.EnumSet.allOf(ItemType.class))) {
                layout = reader.itemLayout(id).name().toLowerCase(java.util.Locale.ROOT);
                while (s.hasNext()) {
                  if (s.next() instanceof ItemEntry.Undecodable u) {
                    bad++;
                    problems.add(u.location() + ": " + u.reason());
                  } else {
                    items++;
                  }
                }
              } catch (IOException e) {
                layout = "-";
                problems.add(a.name() + ": " + e.getMessage());
              }
              accounts.add(new AccountLine(a.name(), layout, items, bad));
            }
            case Parsed.Failed<Account>(String location, String reason) ->
                problems.add(location + ": " + reason);
          }
        }
        var m = reader.manifest();
        inspection =
            new Inspection(
                backup.toString(),
                m.format(),
                String.valueOf(m.version()),
                m.serverId(),
                String.valueOf(m.createdAt()),
                reader.domains().size(),
                reader.classesOfService().size(),
                reader.distributionLists().size(),
                accounts,
                problems);
      }
      if (output.json) {
        output.print(inspection);
      } else {
        print(inspection);
      }
      return problems.isEmpty() ? ExitCodes.OK : ExitCodes.PARTIAL;
    }

    private static void print(Inspection i) {
      System.out.printf(
          "%s: format %s %s, server %s, created %s%n",
          i.backup(), i.format(), i.version(), i.serverId(), i.createdAt());
      System.out.printf(
          "  %d domains, %d classes of service, %d lists, %d accounts%n",
          i.domains(), i.classesOfService(), i.lists(), i.accounts().size());
      for (AccountLine a : i.accounts()) {
        System.out.printf(
            "  %-40s %-8s %s items%s%n",
            a.account(),
            a.layout(),
            Report.count(a.items()),
            a.unreadable() > 0 ? ", " + a.unreadable() + " unreadable" : "");
      }
      i.problems().forEach(p -> System.out.printf("  ! %s%n", p));
    }
  }
}
