package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

/**
 * The restore process is killed with SIGKILL at several random points, resumed after each: the
 * store ends identical to the backup (verify finds no difference) and to an uninterrupted restore
 * of the same backup, with no item lost or doubled.
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
    RestoreProcesses interrupted =
        new RestoreProcesses(backup, dir.resolve("volume-a"), interruptedDb);
    RestoreProcesses uninterrupted =
        new RestoreProcesses(backup, dir.resolve("volume-b"), uninterruptedDb);

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
    List<String> after = StoreFingerprint.of(interruptedDb.dataSource());
    List<String> expected = StoreFingerprint.of(uninterruptedDb.dataSource());
    String context = "after " + KILLS + " kills (seed " + seed + ")";
    assertThat(StoreFingerprint.missing(expected, after)).as("missing " + context).isEmpty();
    assertThat(StoreFingerprint.missing(after, expected)).as("extra " + context).isEmpty();
    assertThat(after).as(context).isEqualTo(expected);
  }
}
