package org.mailrestore.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mail.Json;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.restore.OperationReport;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.RestorePlan;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Restores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mailrestore restore ...}: restores. Its commands are listed in {@link CommandTree}. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = {
      "Restores. 'run' restores in this process, against the database directly; the other"
          + " commands talk to a running service (mailrestore serve) over its REST API."
    })
final class RestoreCommand {

  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description =
          "Restore a source (a backup, Maildir trees, Zimbra account archives, mbox files) into a"
              + " mailstore from this process,"
              + " and wait for the end."
              + " Run it again to resume an interrupted restore (with --operation) or to re-run"
              + " one (what is restored is skipped).")
  static final class Run implements Callable<Integer> {

    @Mixin SourceOptions source;

    @Option(names = "--operation", description = "Resume this operation instead of starting one")
    String operation;

    @Option(
        names = "--every",
        defaultValue = "10",
        description =
            "Seconds between progress lines when not on a terminal (default: ${DEFAULT-VALUE});"
                + " on a terminal one line is redrawn in place")
    int every;

    @Option(
        names = "--lease-seconds",
        defaultValue = "60",
        description =
            "How long an account stays claimed by a process that stopped committing; a resumed"
                + " run waits at most this long for a dead process's accounts (default: ${DEFAULT-VALUE})")
    int leaseSeconds;

    @Option(
        names = "--dry-run",
        description =
            "Read the source and the target and print what the restore would do (accounts"
                + " created, merged, replaced, skipped; items and bytes to copy); write nothing")
    boolean dryRun;

    @Option(
        names = "--report",
        description =
            "Also write the operation's report here as JSON (per account restored, skipped and"
                + " unrestored, each unrestored item with its reason; schema in docs/service.md)")
    java.nio.file.Path report;

    @Option(
        names = "--metrics-port",
        description =
            "Serve the restore's metrics for Prometheus on this port while it runs"
                + " (/actuator/prometheus, as the service; 0: any free port, printed)")
    Integer metricsPort;

    @Option(
        names = "--metrics-address",
        defaultValue = "127.0.0.1",
        description =
            "The address the metrics are served on (default: ${DEFAULT-VALUE}; 0.0.0.0 for all)")
    String metricsAddress;

    @Option(
        names = "--metrics-linger",
        defaultValue = "0",
        description =
            "Seconds to keep serving the metrics after the restore ends, so that a last scrape"
                + " sees the final counts (default: ${DEFAULT-VALUE})")
    int metricsLinger;

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

    @Mixin JsonOutput output;

    @Mixin NotifyOptions notify;

    @Override
    public Integer call() throws Exception {
      Concurrency machine = Concurrency.forMachine();
      Concurrency concurrency =
          new Concurrency(
              restore.concurrentAccounts > 0 ? restore.concurrentAccounts : machine.accounts(),
              clustersPerAccount,
              blobTransfers);
      MeterRegistry registry = new SimpleMeterRegistry();
      MetricsEndpoint metrics = null;
      if (metricsPort != null) {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(prometheus);
        new JvmThreadMetrics().bindTo(prometheus);
        new ProcessorMetrics().bindTo(prometheus);
        metrics = MetricsEndpoint.start(prometheus, metricsAddress, metricsPort);
        output.people().println("metrics at " + metrics.url());
        registry = prometheus;
      }
      try (MetricsEndpoint served = metrics) {
        int code = run(concurrency, registry);
        if (served != null && metricsLinger > 0) {
          Thread.sleep(metricsLinger * 1000L);
        }
        return code;
      }
    }

    private Restores open(Concurrency concurrency, MeterRegistry registry) throws Exception {
      return (operation != null ? store.forResume() : store.forRestore())
          .concurrency(concurrency)
          .registry(registry)
          .leaseSeconds(leaseSeconds)
          .listener(notify.listener())
          .build();
    }

    /** The targets the operation recorded, read before any target named here is opened. */
    private List<TargetSpec> recordedTargets() throws Exception {
      try (Restores books = store.withoutTargets().build()) {
        RestoreRequest request = books.get(operation).request();
        return request == null ? List.of() : request.targets();
      }
    }

    private int dryRun(Concurrency concurrency, MeterRegistry registry) throws Exception {
      if (operation != null) {
        throw new IllegalArgumentException("--dry-run plans a new restore: not with --operation");
      }
      try (Restores restores = open(concurrency, registry)) {
        RestorePlan plan = restores.dryRun(restore.request(source.source()));
        if (output.json) {
          output.print(plan);
        } else {
          Report.plan(System.out, plan);
        }
        return ExitCodes.OK;
      }
    }

    private int run(Concurrency concurrency, MeterRegistry registry) throws Exception {
      if (dryRun) {
        return dryRun(concurrency, registry);
      }
      if (operation != null) {
        store.checkResumeTargets(operation, recordedTargets());
      }
      try (Restores restores = open(concurrency, registry)) {
        if (operation != null && restore.pace().isLimited()) {
          restores.pace(operation, restore.pace());
        }
        String id =
            operation != null
                ? restores.join(operation).id()
                : restores.submit(restore.request(source.source()), null, restore.pace()).id();
        output.people().println("operation " + id);
        if (operation != null) {
          // Otherwise a resume after a kill looks stalled while it waits.
          output
              .people()
              .println(
                  "resuming: what a process that was killed still holds is taken over when its"
                      + " lease ends, up to --lease-seconds (60 s by default) after it stopped");
        }
        try (GracefulShutdown shutdown = GracefulShutdown.install(restores, SHUTDOWN_GRACE)) {
          OperationView ended;
          try (LocalProgress shown =
              LocalProgress.start(
                  restores, id, Duration.ofSeconds(Math.max(1, every)), output.people())) {
            ended = restores.await(id, FOREVER);
          }
          if (shutdown.requested() && !ended.state().isFinished()) {
            output
                .people()
                .println(
                    "stopped for shutdown: clusters in flight were committed; resume with"
                        + " --operation "
                        + id);
            return ExitCodes.FAILED;
          }
          Error stoppedBy = restores.stoppedBy(id);
          if (stoppedBy != null && !ended.state().isFinished()) {
            output
                .people()
                .println(
                    "stopped by an error of the JVM: "
                        + stoppedBy
                        + "; the clusters committed are kept: resume with --operation "
                        + id);
            return ExitCodes.FAILED;
          }
          if (report != null) {
            OperationReport written = restores.report(id);
            java.nio.file.Files.writeString(report, Json.PRETTY.writeValueAsString(written));
            Report.report(output.people(), written);
            output.people().println("  report      written to " + report.toAbsolutePath());
          }
          if (output.json) {
            output.print(ended);
            return exitCode(ended.state());
          }
          Report.operation(System.out, ended);
          long errors = ended.counts().errors() + ended.counts().warnings();
          if (errors > 0) {
            Report.failures(System.out, restores.failures(id, 0, 50).items(), errors);
          }
          return exitCode(ended.state());
        }
      }
    }
  }

  /** A local run waits for its operation as long as it takes. */
  private static final Duration FOREVER = Duration.ofDays(365_000);

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
