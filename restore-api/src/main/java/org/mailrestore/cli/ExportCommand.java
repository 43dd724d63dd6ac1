package org.mailrestore.cli;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mailrestore.export.BackupExporter;
import org.mailrestore.export.ExportReport;
import org.mailrestore.export.MaildirExporter;
import org.mailrestore.restore.storage.S3Profiles;
import org.mailrestore.restore.storage.StorageLimits;
import org.mailrestore.restore.storage.Volumes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mailrestore export ...}: write restored mailboxes back out. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = "Write restored mailboxes out of the mailstore, every message byte for byte.",
    subcommands = {ExportCommand.Maildir.class, ExportCommand.Backup.class})
final class ExportCommand {

  /** The mailstore and its volumes (all registered ones, local or S3 through the environment). */
  static final class Store {
    @Mixin DatabaseOptions database;

    <T> T with(Work<T> work) throws Exception {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      try (HikariDataSource ds = database.smallPool();
          S3Profiles profiles =
              new S3Profiles(EnvironmentS3Profiles.read(System.getenv()), registry)) {
        Volumes volumes = new Volumes(profiles, StorageLimits.DEFAULT, registry);
        return work.run(ds, volumes.openAll(ds));
      }
    }

    @FunctionalInterface
    interface Work<T> {
      T run(javax.sql.DataSource ds, java.util.Map<Integer, org.mailrestore.blob.BlobVolume> v)
          throws Exception;
    }
  }

  @Command(
      name = "maildir",
      mixinStandardHelpOptions = true,
      description =
          "Export one account as a Maildir tree. An account restored from a Maildir tree goes back"
              + " to the same layout, directories and file names; any other becomes Maildir++.")
  static final class Maildir implements Callable<Integer> {
    @Option(names = "--account", required = true, description = "The account's address")
    String account;

    @Option(names = "--out", required = true, description = "A new (or empty) directory")
    Path out;

    @Mixin Store store;

    @Override
    public Integer call() throws Exception {
      ExportReport report =
          store.with((ds, volumes) -> new MaildirExporter(ds, volumes).export(account, out));
      return print(report, out);
    }
  }

  @Command(
      name = "backup",
      mixinStandardHelpOptions = true,
      description =
          "Export accounts as a backup in format v1 (their current state; grants and mountpoints"
              + " are left out), which restores to the same mailboxes.")
  static final class Backup implements Callable<Integer> {
    @Option(names = "--account", required = true, description = "An account's address; repeatable")
    List<String> accounts;

    @Option(names = "--out", required = true, description = "A new (or empty) directory")
    Path out;

    @Mixin Store store;

    @Override
    public Integer call() throws Exception {
      ExportReport report =
          store.with((ds, volumes) -> new BackupExporter(ds, volumes).export(accounts, out));
      return print(report, out);
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
