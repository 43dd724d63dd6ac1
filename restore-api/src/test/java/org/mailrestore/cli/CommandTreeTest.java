package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line holds the commands its arguments name, and is the same there as the whole tree.
 */
class CommandTreeTest {

  private static final List<String> TOP =
      List.of("demo", "backup", "restore", "verify", "export", "serve", "help");

  private static List<String> commands(CommandLine line) {
    return List.copyOf(line.getSubcommands().keySet());
  }

  @Test
  void aRunBuildsTheCommandsItsArgumentsNameAndNoOther() {
    CommandLine cli = MailrestoreCli.commandLine("restore", "run", "--maildir", "/tmp/x");
    assertThat(commands(cli)).containsExactly("restore");
    assertThat(commands(cli.getSubcommands().get("restore"))).containsExactly("run");
    assertThat(commands(cli.getSubcommands().get("restore").getSubcommands().get("run"))).isEmpty();
  }

  @Test
  void whereTheNamesEndEveryCommandBelowIsBuiltForItsHelp() {
    CommandLine restore =
        MailrestoreCli.commandLine("restore", "--help").getSubcommands().get("restore");
    assertThat(commands(restore))
        .containsExactly(
            "run",
            "start",
            "watch",
            "status",
            "list",
            "accounts",
            "failures",
            "report",
            "pace",
            "cancel",
            "resume");
  }

  @Test
  void argumentsThatNameNoCommandBuildTheWholeTree() {
    for (String[] args :
        List.of(
            new String[] {},
            new String[] {"--help"},
            new String[] {"help", "restore"},
            new String[] {"restor", "run"})) {
      CommandLine cli = MailrestoreCli.commandLine(args);
      assertThat(commands(cli)).as(String.join(" ", args)).containsExactlyElementsOf(TOP);
      assertThat(commands(cli.getSubcommands().get("restore"))).hasSize(11);
      assertThat(commands(cli.getSubcommands().get("export"))).isNotEmpty();
    }
  }

  @Test
  void everyCommandIsReachedByItsNameAndReadsAsInTheWholeTree() {
    CommandLine whole = MailrestoreCli.commandLine();
    List<List<String>> paths = new ArrayList<>();
    collect(whole, List.of(), paths);
    assertThat(paths).hasSizeGreaterThan(20);
    for (List<String> path : paths) {
      CommandLine built = MailrestoreCli.commandLine(path.toArray(String[]::new));
      CommandLine fromWhole = whole;
      for (String name : path) {
        assertThat(built.getSubcommands()).as("%s in %s", name, path).containsKey(name);
        built = built.getSubcommands().get(name);
        fromWhole = fromWhole.getSubcommands().get(name);
      }
      assertThat(built.getUsageMessage(CommandLine.Help.Ansi.OFF))
          .as("help of %s", path)
          .isEqualTo(fromWhole.getUsageMessage(CommandLine.Help.Ansi.OFF));
    }
  }

  private static void collect(CommandLine line, List<String> path, List<List<String>> paths) {
    for (var command : line.getSubcommands().entrySet()) {
      List<String> next = new ArrayList<>(path);
      next.add(command.getKey());
      paths.add(next);
      collect(command.getValue(), next, paths);
    }
  }
}
