package org.mailrestore.restore;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.destination.memory.MemoryKind;

/** The in-memory target, read back, passes the source contract. */
class MemoryReadBackContractTest extends ReadBackContract {

  @Override
  protected List<TargetSpec> targets(Path dir) {
    return List.of(MemoryKind.of("read-back-" + UUID.randomUUID()));
  }
}
