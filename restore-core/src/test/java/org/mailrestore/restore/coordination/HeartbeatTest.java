package org.mailrestore.restore.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mailrestore.restore.bookkeeping.LeaseStore;
import org.mailrestore.restore.bookkeeping.OperationStore;
import org.mailrestore.restore.run.HeldLeases;

class HeartbeatTest {

  @Test
  void aStoppedHeartbeatDoesNotStartAgain() {
    // The store is never reached: the first beat would come a second after the start.
    Heartbeat heartbeat =
        new Heartbeat(
            new OperationStore(null),
            new LeaseStore(null),
            "test-instance",
            3,
            Map.of(),
            new HeldLeases(3));
    heartbeat.start();
    assertThat(heartbeat.isBeating()).isTrue();
    heartbeat.stop();
    assertThat(heartbeat.isBeating()).isFalse();

    // An operation that ends after its engine closed asks for a beat again.
    heartbeat.start();
    assertThat(heartbeat.isBeating()).isFalse();
  }
}
