package org.mailrestore.cli;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The commands under {@code mailrestore}, in the order help lists them, and the command line built
 * for a run. picocli builds each command's model by reflection over its annotations, and building
 * the whole tree cost a cold command about a tenth of its start (decision 0064). So a command line
 * holds the commands its arguments name, and where those names end, every command below: a run of
 * {@code restore run} builds {@code mailrestore}, {@code restore} and {@code run}, and {@code
 * restore --help} builds all of {@code restore}'s commands, which its help lists. Arguments that
 * name no command (a typo, an option, {@code help}) build the whole tree, so help, errors and
 * suggestions are the same as with every command built.
 */
final class CommandTree {

  /** A command, what is added once it is built, and its commands. */
  private record Node(Class<?> type, Consumer<CommandLine> then, List<Node> commands) {

    /** Whether {@code name} is this command's name or one of its aliases. */
    boolean named(String name) {
      Command command = type.getAnnotation(Command.class);
      return command != null
          && (command.name().equals(name) || Arrays.asList(command.aliases()).contains(name));
    }
  }

  private static final Node ROOT =
      node(
          MailrestoreCli.class,
          node(DemoCommand.class),
          node(
              BackupCommand.class,
              node(BackupCommand.Generate.class),
              node(BackupCommand.Inspect.class)),
          node(
              RestoreCommand.class,
              node(RestoreCommand.Run.class),
              node(RestoreApiCommands.Start.class),
              node(RestoreApiCommands.Watch.class),
              node(RestoreApiCommands.Status.class),
              node(RestoreApiCommands.ListOperations.class),
              node(RestoreApiCommands.Accounts.class),
              node(RestoreApiCommands.Failures.class),
              node(ReportCommand.class),
              node(PaceCommand.class),
              node(RestoreApiCommands.Cancel.class),
              node(RestoreApiCommands.Resume.class)),
          node(VerifyCommand.class),
          new Node(ExportCommand.class, ExportCommand::addFormats, List.of()),
          node(ServeCommand.class),
          // Never a step of a path: "help restore" needs the command it describes built.
          node(CommandLine.HelpCommand.class));

  private CommandTree() {}

  private static Node node(Class<?> type, Node... commands) {
    return new Node(type, line -> {}, List.of(commands));
  }

  /** The command line for {@code args}: every command when {@code args} is empty. */
  static CommandLine forArguments(List<String> args) {
    return build(ROOT, args);
  }

  /**
   * {@code node} and, below it, the command {@code args} name next (built along the rest of them)
   * or, when they name none, all of its commands.
   */
  private static CommandLine build(Node node, List<String> args) {
    CommandLine line = new CommandLine(node.type());
    Node next = null;
    if (!args.isEmpty() && !node.commands().isEmpty()) {
      for (Node command : node.commands()) {
        if (command.type() != CommandLine.HelpCommand.class && command.named(args.getFirst())) {
          next = command;
        }
      }
    }
    for (Node command : node.commands()) {
      if (next == null) {
        line.addSubcommand(build(command, List.of()));
      } else if (command == next) {
        line.addSubcommand(build(command, args.subList(1, args.size())));
      }
    }
    node.then().accept(line);
    return line;
  }
}
