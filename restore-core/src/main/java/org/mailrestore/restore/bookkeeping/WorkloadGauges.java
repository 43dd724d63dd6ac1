package org.mailrestore.restore.bookkeeping;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.OperationState;

/**
 * What the database says about the work, as gauges: operations by state, and the accounts of the
 * operations not yet ended by state (phase 2's progress, from which a dashboard derives an ETA).
 * Every instance reports the same figures, read from the shared database on {@link #refresh()}
 * rather than on each scrape, so that a slow database never slows a scrape.
 */
public final class WorkloadGauges {

  private final OperationStore operations;
  private final Map<OperationState, AtomicLong> byState = new EnumMap<>(OperationState.class);
  private final Map<AccountState, AtomicLong> accounts = new EnumMap<>(AccountState.class);

  public WorkloadGauges(OperationStore operations, MeterRegistry registry) {
    this.operations = operations;
    // Every state is a series from the start, at 0, so queries return data before any restore.
    for (OperationState s : OperationState.values()) {
      AtomicLong value = new AtomicLong();
      byState.put(s, value);
      Gauge.builder("mailrestore.operations", value, AtomicLong::get)
          .description("Restore operations in the database, by state (the same on every instance)")
          .tag("state", s.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
    for (AccountState s : AccountState.values()) {
      AtomicLong value = new AtomicLong();
      accounts.put(s, value);
      Gauge.builder("mailrestore.operation.accounts", value, AtomicLong::get)
          .description("Accounts of the operations not yet ended, by state")
          .tag("state", s.name().toLowerCase(Locale.ROOT))
          .register(registry);
    }
  }

  /** Reads the figures again; keeps the last ones when the database does not answer. */
  public void refresh() throws SQLException {
    Map<OperationState, Long> ops = operations.countByState();
    Map<AccountState, Long> acc = operations.accountsOfUnfinishedByState();
    byState.forEach((s, v) -> v.set(ops.getOrDefault(s, 0L)));
    accounts.forEach((s, v) -> v.set(acc.getOrDefault(s, 0L)));
  }
}
