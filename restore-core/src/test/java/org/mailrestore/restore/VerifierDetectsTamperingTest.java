package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.memory.MemoryStore;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.StoreContents.Held;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;

/** Verify is only worth something if it notices: each kind of damage must show up. */
class VerifierDetectsTamperingTest {

  @Test
  void everyKindOfDamageIsReported(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(60), backup);
    try (RestoreFixture f = new RestoreFixture()) {
      f.restore(RestoreRequest.local(backup.toString()));
      assertThat(f.verify(backup, Verifier.Options.defaults()).differences()).isEmpty();

      // A flag flipped, a subject changed, an item duplicated, a grant dropped, content damaged.
      MemoryStore store = f.memoryStore();
      List<Held> messages =
          StoreContents.held(f).stream().filter(h -> h.type() == ItemType.MESSAGE).toList();
      Held first = messages.get(0);
      Held last = messages.get(messages.size() - 1);
      store.change(
          first.account(),
          first.id(),
          r ->
              r.toBuilder().flags(Flags.fromBits(Flags.toBits(r.flags()) ^ Flags.FLAGGED)).build());
      store.change(last.account(), last.id(), r -> r.toBuilder().subject("changed").build());
      store.duplicate(first.account(), first.id());
      assertThat(store.dropGrant()).isTrue();
      Held damaged = messages.get(messages.size() / 2);
      store.damage(damaged.account(), damaged.id());

      VerifyReport report = f.verify(backup, Verifier.Options.defaults());
      assertThat(report.identical()).isFalse();
      assertThat(report.differences())
          .anySatisfy(d -> assertThat(d).contains("flags is"))
          .anySatisfy(d -> assertThat(d).contains("subject is changed"))
          .anySatisfy(d -> assertThat(d).contains("the backup accounts for"))
          .anySatisfy(d -> assertThat(d).contains("grants differ"))
          .anySatisfy(d -> assertThat(d).contains("hashing to"));
    }
  }
}
