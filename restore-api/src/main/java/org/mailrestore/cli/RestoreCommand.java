package org.mailrestore.cli;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationStore;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mailrestore restore ...}: restores. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = "Run restores.",
    subcommands = {
      RestoreCommand.Run.class,
      RestoreCommand.Status.class,
      RestoreCommand.Cancel.class
    })
final class RestoreCommand {

  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description =
          "Restore a backup (or a tree of Maildir mailboxes) into a mailstore from this process,"
              + " and wait for the end."
              + " Run it again to resume an interrupted restore (with --operation) or to re-run"
              + " one (what is restored is skipped).")
  static final class Run implements Callable<Integer> {

    @Mixin SourceOptions source;

    @Option(names = "--operation", description = "Resume this operation instead of starting one")
    String operation;

    @Option(
        names = "--lease-seconds",
        defaultValue = "60",
        description =
            "How long an account stays claimed by a process that stopped committing; a resumed"
                + " run waits at most this long for a dead process's accounts (default: ${DEFAULT-VALUE})")
    int leaseSeconds;

    @Option(
        names = "--clusters-per-account",
        defaultValue = "2",
        description =
            "Clusters of one account in flight at once, so one huge account uses the machine"
                + " (default: ${DEFAULT-VALUE})")
    int clustersPerAccount;

    @Option(
        names = "--blob-transfers",
        defaultValue = "32",
        description =
            "Blob copies in flight at once, over all accounts (default: ${DEFAULT-VALUE})")
    int blobTransfers;

    @Mixin StoreOptions store;

    @Mixin RestoreOptions restore;

    @Override
    public Integer call() throws Exception {
      Concurrency machine = Concurrency.forMachine();
      Concurrency concurrency =
          new Concurrency(
              restore.concurrentAccounts > 0 ? restore.concurrentAccounts : machine.accounts(),
              clustersPerAccount,
              blobTransfers);
      try (Mailstore mailstore = store.open(concurrency)) {
        RestoreEngine engine = mailstore.engine(leaseSeconds);
        String id =
            operation != null ? operation : engine.submit(restore.request(source.source()), null);
        System.out.println("operation " + id);
        try (GracefulShutdown shutdown = GracefulShutdown.install(engine, SHUTDOWN_GRACE)) {
          OperationSummary summary = engine.run(id);
          if (shutdown.requested() && !summary.state().isFinished()) {
            System.out.println(
                "stopped for shutdown: clusters in flight were committed; resume with"
                    + " --operation "
                    + id);
            return ExitCodes.FAILED;
          }
          Report.operation(System.out, summary);
          long errors = summary.counts().errors() + summary.counts().warnings();
          if (errors > 0) {
            Report.failures(System.out, engine.operations().failures(id, 0, 50), errors);
          }
          return exitCode(summary.state());
        }
      }
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "Show the recent operations, or one operation with its accounts and failures; works"
              + " while a restore runs (in this or another process).")
  static final class Status implements Callable<Integer> {
    @Option(names = "--operation", description = "The operation to show; default: list them")
    String operation;

    @Option(
        names = "--limit",
        defaultValue = "20",
        description = "How many operations, or failures, to list (default: ${DEFAULT-VALUE})")
    int limit;

    @Mixin DatabaseOptions database;

    @Override
    public Integer call() throws Exception {
      try (HikariDataSource ds = database.smallPool()) {
        OperationStore operations = new OperationStore(ds);
        if (operation == null) {
          List<String> ids = operations.list(null, 0, limit);
          if (ids.isEmpty()) {
            System.out.println("no operations");
          }
          for (String id : ids) {
            Report.operationLine(System.out, operations.find(id).orElseThrow());
          }
          return ExitCodes.OK;
        }
        OperationSummary summary =
            operations
                .find(operation)
                .orElseThrow(() -> new NoSuchElementException("no operation " + operation));
        Report.operation(System.out, summary);
        Report.accounts(System.out, operations.accounts(operation));
        long failures = summary.counts().errors() + summary.counts().warnings();
        if (failures > 0) {
          Report.failures(System.out, operations.failures(operation, 0, limit), failures);
        }
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description =
          "Cancel an operation: the processes running it stop starting clusters within a few"
              + " seconds, commit the ones in flight and end it CANCELLED; resume it later with"
              + " restore run --operation.")
  static final class Cancel implements Callable<Integer> {
    @Option(names = "--operation", required = true, description = "The operation to cancel")
    String operation;

    @Mixin DatabaseOptions database;

    @Override
    public Integer call() throws Exception {
      try (HikariDataSource ds = database.smallPool()) {
        boolean atOnce = new OperationStore(ds).cancel(operation);
        System.out.println(
            atOnce
                ? "operation " + operation + " cancelled (nothing was running it)"
                : "operation "
                    + operation
                    + ": cancel requested; the processes running it stop at their next heartbeat");
        return ExitCodes.OK;
      }
    }
  }

  /** How long SIGTERM waits for clusters in flight to commit (container runtimes allow ~30 s). */
  static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(25);

  static int exitCode(OperationState state) {
    return switch (state) {
      case COMPLETED -> ExitCodes.OK;
      case PARTIAL -> ExitCodes.PARTIAL;
      default -> ExitCodes.FAILED;
    };
  }
}
