package org.mailrestore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Memory as a user meets it: the maximum RSS of a cold {@code mailrestore restore run} and of the
 * {@code verify} after it, for one large folder of distinct real messages and for one of 500, each
 * next to the RSS budget (issue 18: 400 MiB whatever the folder size). RSS, not heap: the process's
 * whole resident memory, as {@code /usr/bin/time} reports it.
 */
@Command(
    name = "memory",
    mixinStandardHelpOptions = true,
    description =
        "The maximum RSS of a cold restore and of its verify, for one large folder of the Enron"
            + " subset's messages and for one of 500, next to a budget.")
final class MemoryCommand implements Callable<Integer> {

  @Mixin ServerOptions mariadb;

  @Option(
      names = "--corpus",
      description = "The Enron subset, as for the peer benchmark (default: as there)")
  Path corpus;

  @Option(
      names = "--messages",
      defaultValue = "75000",
      description = "Messages in the large folder (default: ${DEFAULT-VALUE})")
  int messages;

  @Option(
      names = "--budget-mib",
      defaultValue = "400",
      description = "The RSS budget in MiB (default: ${DEFAULT-VALUE})")
  long budgetMib;

  @Option(names = "--json", description = "Also write the results to this file")
  Path json;

  private static final String DOMAIN = "memory.example";

  @Override
  public Integer call() throws Exception {
    ColdCli cli = ColdCli.prepared();
    Path work = Files.createTempDirectory("mailrestore-memory");
    try {
      Path unpacked =
          PeerCommand.unpack(
              corpus != null ? corpus : PeerCommand.defaultCorpus(), work.resolve("corpus"));
      Path tree = work.resolve("maildir");
      MaildirTree.layOut(unpacked, tree);
      Report report = new Report("memory: the RSS of a cold restore and verify of one folder");
      report.context("mailrestore", cli.describe() + ", launcher defaults");
      report.context("budget", budgetMib + " MiB RSS; \"of limit\" is max RSS over the budget");
      List<String> failures = new ArrayList<>();
      for (int count : List.of(messages, 500)) {
        Path folder = work.resolve("folder-" + count);
        MaildirTree.distinctFolder(tree, folder.resolve("user"), count);
        String group = "one folder, " + String.format(Locale.ROOT, "%,d", count) + " messages";
        try (BenchDatabase db =
            new BenchDatabase(mariadb.url, mariadb.user, mariadb.password(), "memory", 1)) {
          List<String> common =
              List.of(
                  "--maildir",
                  folder.toString(),
                  "--maildir-domain",
                  DOMAIN,
                  "--volume",
                  work.resolve("volume-" + count).toString(),
                  "--volume-packed",
                  "--jdbc-url",
                  db.jdbcUrl(),
                  "--db-user",
                  mariadb.user);
          List<String> restore = new ArrayList<>(List.of("restore", "run"));
          restore.addAll(common);
          List<String> verify = new ArrayList<>(List.of("verify"));
          verify.addAll(common);
          ColdCli.Measured restored = cli.run(restore, Map.of(), work);
          ColdCli.Measured verified =
              cli.run(
                  verify,
                  Map.of(),
                  work,
                  List.of("no differences", String.format(Locale.ROOT, "%,d items", count)));
          for (var run :
              List.of(Map.entry("restore run", restored), Map.entry("verify", verified))) {
            long rssMib = run.getValue().maxRssKib() >> 10;
            report.addAgainstBudget(
                group,
                run.getKey() + ", max RSS " + rssMib + " MiB",
                count,
                run.getValue().seconds(),
                rssMib,
                budgetMib);
            if (rssMib > budgetMib) {
              failures.add(group + ": " + run.getKey() + " " + rssMib + " MiB");
            }
          }
        }
      }
      report.print(System.out);
      if (json != null) {
        report.writeJson(json);
      }
      if (!failures.isEmpty()) {
        System.out.println("  over the budget: " + String.join("; ", failures));
      }
      return 0;
    } finally {
      try (Stream<Path> paths = Files.walk(work)) {
        paths.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
