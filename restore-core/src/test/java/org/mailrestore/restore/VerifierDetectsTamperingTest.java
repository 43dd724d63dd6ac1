package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.memory.MemoryStore;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.StoreContents.Held;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.MailSource;
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

      // Several accounts at once report what one at a time reports, in the same order.
      Verifier.Options listFew =
          new Verifier.Options(
              Verifier.Options.defaults().pointInTime(),
              Verifier.Options.defaults().targetName(),
              Set.of(),
              true,
              true,
              Set.of(),
              3);
      VerifyReport oneAtATime = verify(f, backup, 1, listFew);
      for (int i = 0; i < 5; i++) {
        assertThat(verify(f, backup, 3, listFew)).isEqualTo(oneAtATime);
      }
      assertThat(oneAtATime.differenceCount()).isGreaterThan(3);
      assertThat(oneAtATime.differences()).hasSize(3);
    }
  }

  private static VerifyReport verify(
      RestoreFixture f, Path backup, int accountsAtOnce, Verifier.Options options)
      throws Exception {
    RestoreRuntime runtime = f.runtime;
    try (MailSource source = runtime.openSource(BackupSourceKind.local(backup))) {
      return new Verifier(
              runtime.bookkeeping().idMap(), runtime.target(null).readBack(), accountsAtOnce)
          .verify(source, options);
    }
  }
}
