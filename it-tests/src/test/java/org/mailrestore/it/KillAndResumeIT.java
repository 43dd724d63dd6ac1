package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * The restore process is killed with SIGKILL at several random points, resumed after each: the
 * store ends identical to the source (verify finds no difference) and to an uninterrupted restore
 * of the same source, with no item lost or doubled. A backup read by digest, and an mbox whose
 * messages pass once.
 */
class KillAndResumeIT {

  private static final int KILLS = 3 * Soak.scale();

  @TempDir Path dir;
  TestDatabase interruptedDb;
  TestDatabase uninterruptedDb;

  @BeforeEach
  void createDatabases() {
    interruptedDb = TestMariaDb.createDatabase();
    uninterruptedDb = TestMariaDb.createDatabase();
  }

  @AfterEach
  void dropDatabases() {
    interruptedDb.close();
    uninterruptedDb.close();
  }

  @Test
  void killedWithSigkillSeveralTimesThenResumedEndsIdentical() throws Exception {
    Path backup = RestoreProcesses.generate(dir.resolve("backup"), 6 * Soak.scale(), 1500, 11);
    killAndResume(
        new RestoreProcesses(backup, dir.resolve("volume-a"), interruptedDb),
        new RestoreProcesses(backup, dir.resolve("volume-b"), uninterruptedDb));
  }

  /**
   * An mbox's messages pass once and are written behind their reader (decision 0079): writes in
   * flight when the process dies belong to clusters that never committed, and are written again.
   */
  @Test
  void anMboxRestoreKilledSeveralTimesThenResumedEndsIdentical() throws Exception {
    Path mbox = dir.resolve("mail").resolve("Inbox");
    Files.createDirectories(mbox.getParent());
    SplittableRandom sizes = new SplittableRandom(7);
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(mbox))) {
      for (int i = 0; i < 8000 * Soak.scale(); i++) {
        // Mostly small, now and then larger than a pack takes.
        int body = i % 97 == 0 ? 70_000 + sizes.nextInt(50_000) : 200 + sizes.nextInt(3000);
        String message =
            "Subject: message "
                + i
                + "\nMessage-ID: <"
                + i
                + "@kill.example>\n\n"
                + "x".repeat(body)
                + "\n";
        out.write(
            MboxWriter.mboxrd(
                message.getBytes(StandardCharsets.US_ASCII), "From - Mon May 14 23:39:00 2001"));
      }
    }
    List<String> source =
        List.of("--mbox", mbox.getParent().toString(), "--mbox-account", "kill@example.org");
    killAndResume(
        new RestoreProcesses(source, dir.resolve("volume-a"), interruptedDb),
        new RestoreProcesses(source, dir.resolve("volume-b"), uninterruptedDb));
  }

  private static void killAndResume(RestoreProcesses interrupted, RestoreProcesses uninterrupted)
      throws Exception {
    long seed = System.nanoTime();
    SplittableRandom random = new SplittableRandom(seed);
    String operation = null;
    long killAt = random.nextInt(4); // 0: as soon as it starts, in provisioning most likely
    int kills = 0;
    while (kills < KILLS) {
      CliProcess child =
          operation == null ? interrupted.start() : interrupted.start("--operation", operation);
      operation = child.operation();
      long threshold = killAt;
      if (!interrupted.awaitCount(
          child, "SELECT COUNT(*) FROM restore_cluster", n -> n >= threshold)) {
        break; // it finished before this kill point: nothing left to interrupt
      }
      child.kill();
      kills++;
      killAt = interrupted.committedClusters() + 3 + random.nextInt(20);
    }
    assertThat(kills).as("kills (seed %d)", seed).isEqualTo(KILLS);

    Cli.Result resumed = interrupted.runInProcess("--operation", operation);
    assertThat(resumed.exitCode()).as(resumed.out()).isZero();
    assertThat(resumed.out()).contains("resuming: ").contains("COMPLETED").contains("0 skipped");

    Cli.Result verified = interrupted.verify();
    assertThat(verified.exitCode()).as(verified.out()).isZero();
    assertThat(verified.out()).contains("no differences");

    Cli.Result reference = uninterrupted.runInProcess();
    assertThat(reference.exitCode()).as(reference.out()).isZero();
    List<String> after = StoreFingerprint.of(interrupted.database.dataSource());
    List<String> expected = StoreFingerprint.of(uninterrupted.database.dataSource());
    String context = "after " + KILLS + " kills (seed " + seed + ")";
    assertThat(StoreFingerprint.missing(expected, after)).as("missing " + context).isEmpty();
    assertThat(StoreFingerprint.missing(after, expected)).as("extra " + context).isEmpty();
    assertThat(after).as(context).isEqualTo(expected);
  }
}
