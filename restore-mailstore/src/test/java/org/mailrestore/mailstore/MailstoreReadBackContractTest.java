package org.mailrestore.mailstore;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.destination.memory.MemoryKind;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.ReadBackContract;

/** The mailstore read back (what verify and export read) passes the source contract. */
class MailstoreReadBackContractTest {

  @Nested
  class Alone extends ReadBackContract {
    @Override
    protected List<TargetSpec> targets(Path dir) {
      return List.of(MailstoreKind.of(VolumeSpec.local("v", dir.resolve("volume").toString())));
    }
  }

  /** Composed with another target that takes contacts: the messages are read back the same. */
  @Nested
  class Composed extends ReadBackContract {
    @Override
    protected List<TargetSpec> targets(Path dir) {
      return List.of(
          MailstoreKind.of(VolumeSpec.local("v", dir.resolve("volume").toString())),
          MemoryKind.of("contacts-" + UUID.randomUUID(), Set.of(ItemType.CONTACT)));
    }
  }
}
