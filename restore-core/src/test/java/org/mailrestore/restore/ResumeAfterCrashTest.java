package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.BackupStorage;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.verify.Verifier;

/**
 * An operation that dies in the middle of phase 2 (here: an unexpected error while reading a blob)
 * is run again and ends exactly as an uninterrupted one: nothing lost, nothing twice.
 */
class ResumeAfterCrashTest {

  /** Dies on the n-th blob it is asked for. */
  record CrashingStorage(LocalBackupStorage delegate, AtomicInteger countdown)
      implements BackupStorage {
    @Override
    public InputStream open(String path) throws IOException {
      return delegate.open(path);
    }

    @Override
    public boolean exists(String path) {
      return delegate.exists(path);
    }

    @Override
    public List<String> list(String directory) throws IOException {
      return delegate.list(directory);
    }

    @Override
    public String describe() {
      return delegate.describe();
    }

    @Override
    public String identity() throws IOException {
      return delegate.identity();
    }

    @Override
    public BlobSource blobSource() {
      BlobSource real = delegate.blobSource();
      return new BlobSource() {
        @Override
        public InputStream open(BlobDigest digest) throws IOException {
          if (countdown.decrementAndGet() == 0) {
            // An Error, as the death of the process is: nothing of the restore handles it (a
            // RuntimeException would be a fault of ours, failing the account for good).
            throw new SimulatedCrash();
          }
          return real.open(digest);
        }

        @Override
        public String describe(BlobDigest digest) {
          return real.describe(digest);
        }
      };
    }
  }

  @Test
  void aCrashedOperationResumesToTheSameResult(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(4).withItemsPerAccount(200), backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      AtomicInteger countdown = new AtomicInteger(450);
      RestoreEngine crashing =
          new RestoreEngine(
              f.engine.bookkeeping(),
              (source, selection) ->
                  BackupReader.open(
                      new CrashingStorage(
                          new LocalBackupStorage(Path.of(source.location())), countdown)),
              f.runtime.targetOpener(),
              f.metrics,
              "test-instance",
              RestoreEngine.DEFAULT_LEASE_SECONDS,
              new Concurrency(3, 2, 16));
      String id =
          crashing.submit(RestoreRequest.local(backup.toString()).withClusterSize(50), null);
      assertThatThrownBy(() -> crashing.run(id)).hasMessageContaining("simulated crash");
      // The process died, and its threads (the lease heartbeat) with it.
      crashing.close();
      OperationSummary crashed = f.engine.operations().find(id).orElseThrow();
      assertThat(crashed.state()).isEqualTo(OperationState.RUNNING);
      assertThat(crashed.counts().itemsRestored()).isPositive().isLessThan(expected);

      OperationSummary resumed = f.engine.run(id);
      assertThat(resumed.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(resumed.counts().itemsRestored()).isEqualTo(expected);
      assertThat(resumed.counts().itemsSkipped()).isZero();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  /** The process dying in the middle of a cluster. */
  static final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1;

    SimulatedCrash() {
      super("simulated crash");
    }
  }
}
