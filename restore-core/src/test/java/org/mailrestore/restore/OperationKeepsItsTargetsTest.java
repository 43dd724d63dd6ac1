package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.destination.memory.MemoryStore;
import org.mailrestore.mail.ItemType;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.verify.Verifier;

/**
 * An operation records the targets it writes to. Another instance sharing the database with default
 * targets of its own (a service beside the command that started the restore, say) that resumes it
 * writes into the operation's targets, never into its own.
 */
class OperationKeepsItsTargetsTest {

  @Test
  void anotherInstanceWithOtherTargetsResumesIntoTheOperationsOwn(@TempDir Path dir)
      throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(50), backup);
    try (RestoreFixture f = new RestoreFixture()) {
      String id = f.engine.submit(RestoreRequest.local(backup.toString()), null);
      String other = "elsewhere-" + UUID.randomUUID();
      try (RestoreRuntime elsewhere =
          RestoreRuntime.builder()
              .dataSource(f.database.dataSource())
              .defaultTarget(MemoryKind.of(other))
              .build()) {
        OperationSummary resumed = elsewhere.engine().run(id);
        assertThat(resumed.state()).as(resumed.toString()).isEqualTo(OperationState.COMPLETED);
        assertThat(resumed.counts().itemsRestored()).isPositive();
      }
      assertThat(MemoryStore.named(other).countOf(ItemType.MESSAGE))
          .as("nothing written into the other instance's own target")
          .isZero();
      assertThat(f.memoryStore().countOf(ItemType.MESSAGE)).isPositive();
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
