package org.mailrestore.restore.coordination;

import java.util.function.BooleanSupplier;

/** Waiting on a monitor for a condition that those who change it notify, up to a time. */
final class MonitorWait {

  private MonitorWait() {}

  /**
   * Waits on {@code monitor}, which the caller holds, until {@code done} holds or {@code millis}
   * pass; spurious wake-ups and notices of other changes wait again for what is left.
   */
  static void until(Object monitor, BooleanSupplier done, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    for (long left = millis; !done.getAsBoolean() && left > 0; ) {
      monitor.wait(left);
      left = (deadline - System.nanoTime()) / 1_000_000;
    }
  }
}
