package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.testkit.TestDatabase;

/** Restores of one source into one test database, run as CLI processes: the crash tests' setup. */
final class RestoreProcesses {

  final List<String> source;
  final Path volume;
  final TestDatabase database;

  /** Restores of a backup in our format. */
  RestoreProcesses(Path backup, Path volume, TestDatabase database) {
    this(List.of("--backup", backup.toString()), volume, database);
  }

  /** Restores of any source, named by its flags ({@code --mbox PATH --mbox-account A}). */
  RestoreProcesses(List<String> source, Path volume, TestDatabase database) {
    this.source = List.copyOf(source);
    this.volume = volume;
    this.database = database;
  }

  static Path generate(Path backup, int accounts, int items, int seed) {
    Cli.Result generated =
        Cli.run(
            "backup",
            "generate",
            "--out",
            backup.toString(),
            "--accounts",
            String.valueOf(accounts),
            "--items",
            String.valueOf(items),
            "--seed",
            String.valueOf(seed));
    assertThat(generated.exitCode()).as(generated.out()).isZero();
    return backup;
  }

  /**
   * Deletes the blob of a message that exists in the latest state of a local backup (so a restore
   * needs it and must report it missing); returns its digest.
   */
  static String deleteALiveMessagesBlob(Path backup) throws IOException {
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String id : reader.accountIds()) {
        try (ItemStream stream = reader.items(id, Set.of(ItemType.MESSAGE))) {
          while (stream.hasNext()) {
            if (stream.next() instanceof ItemEntry.Decoded(Item item, String location, var passing)
                && item.latest().isPresent()) {
              BlobDigest digest = item.latest().get().digest();
              Files.delete(
                  backup
                      .resolve(BackupLayout.BLOBS)
                      .resolve(BlobLayout.relativeName(digest, BlobCompression.NONE)));
              return digest.hex();
            }
          }
        }
      }
    }
    throw new IllegalStateException("no live message in " + backup);
  }

  /** {@code restore run} arguments, with a short lease so that takeovers are quick. */
  List<String> restoreArgs(String... extra) {
    List<String> args = new ArrayList<>(List.of("restore", "run"));
    args.addAll(source);
    args.addAll(Cli.store(database, volume));
    args.addAll(List.of("--cluster-size", "100", "--lease-seconds", "3"));
    args.addAll(List.of(extra));
    return args;
  }

  CliProcess start(String... extra) {
    return CliProcess.start(database.server().password(), restoreArgs(extra));
  }

  Cli.Result runInProcess(String... extra) {
    return Cli.run(restoreArgs(extra).toArray(String[]::new));
  }

  Cli.Result verify() {
    List<String> args = new ArrayList<>(List.of("verify"));
    args.addAll(source);
    return Cli.run(Cli.args(args, Cli.store(database, volume)));
  }

  long count(String sql) throws Exception {
    try (Connection c = database.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  long committedClusters() throws Exception {
    return count("SELECT COUNT(*) FROM restore_cluster");
  }

  /**
   * Waits until {@code sql} counts a value {@code until} accepts, while {@code process} lives;
   * returns whether it got there before the process ended.
   */
  boolean awaitCount(CliProcess process, String sql, LongPredicate until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (process.isAlive()) {
      if (until.test(count(sql))) {
        return true;
      }
      assertThat(System.nanoTime())
          .as("no progress in 3 minutes:%n%s", process.output())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return false;
  }
}
