package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;

/**
 * Phase 1 provisions accounts several at once (decision 0065): the first account's creation is held
 * until a second account's creation begins, which one-after-another provisioning never does. The
 * accounts share a domain and a class of service, rows every account writes.
 */
class ProvisioningAtOnceTest {

  /** An account's first statement in phase 1: the engine notes it among the operation's. */
  private static final String ACCOUNT_BEGINS = "INSERT IGNORE INTO restore_account (";

  @Test
  void accountsAreProvisionedSeveralAtOnceAndEachOnce(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(8).withItemsPerAccount(20), backup);
    long expected = MergeOfDifferentSourcesTest.liveItems(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      CountDownLatch two = new CountDownLatch(2);
      AtomicBoolean overlapped = new AtomicBoolean();
      AtomicInteger begun = new AtomicInteger();
      DataSource watched =
          InterceptedDataSource.of(
              f.database.dataSource(),
              (connection, method, args) -> {
                if (method.getName().equals("prepareStatement")
                    && String.valueOf(args[0]).startsWith(ACCOUNT_BEGINS)) {
                  int n = begun.incrementAndGet();
                  if (n <= 2) {
                    two.countDown();
                    // Only the first waits for company; the second finds the first waiting.
                    boolean both = two.await(20, TimeUnit.SECONDS);
                    if (n == 1 && both) {
                      overlapped.set(true);
                    }
                  }
                }
              });
      RestoreRuntime runtime = f.runtime(watched, RestoreEngine.DEFAULT_LEASE_SECONDS);
      runtime.target(null);
      RestoreEngine engine = runtime.engine();
      String id = engine.submit(RestoreRequest.local(backup.toString()), null);
      OperationSummary result = engine.run(id);

      assertThat(overlapped).isTrue();
      assertThat(result.state()).isEqualTo(OperationState.COMPLETED);
      assertThat(result.counts().accounts()).isEqualTo(8);
      assertThat(result.counts().itemsRestored()).isEqualTo(expected);
      assertThat(f.count("SELECT COUNT(*) FROM restore_account")).isEqualTo(8);
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
      runtime.close();
    }
  }
}
