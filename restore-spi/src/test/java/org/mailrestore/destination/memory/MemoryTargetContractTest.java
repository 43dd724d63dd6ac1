package org.mailrestore.destination.memory;

import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailTargetContract;
import org.mailrestore.destination.TargetContext;

/** The in-memory target passes the contract every target passes. */
class MemoryTargetContractTest extends MailTargetContract {

  private final String store = "contract-" + UUID.randomUUID();

  @Override
  protected MailTarget open(TargetContext context) throws Exception {
    return MemoryKind.of(store).open(context);
  }

  @AfterEach
  void forgetStore() {
    MemoryStore.forget(store);
  }
}
