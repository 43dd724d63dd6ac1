package org.mailrestore.runtime;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import javax.sql.DataSource;
import org.mailrestore.restore.bookkeeping.EngineSchema;
import org.mailrestore.target.TargetKind;
import org.mailrestore.target.TargetKinds;
import org.mailrestore.target.TargetSpec;

/**
 * The tables a runtime needs before it starts: the engine's, and those of its default target's kind
 * at the same time (on a fresh database each set is a few hundred milliseconds of DDL and Flyway,
 * most of it waiting).
 */
final class RuntimeTables {

  private RuntimeTables() {}

  static void migrate(DataSource ds, TargetSpec defaultTarget) {
    TargetKind kind =
        defaultTarget == null
            ? null
            : TargetKinds.installed().find(defaultTarget.kind()).orElse(null);
    if (kind == null) {
      EngineSchema.migrate(ds);
      return;
    }
    FutureTask<Void> target =
        new FutureTask<>(() -> {
          kind.prepare(ds);
          return null;
        });
    Thread.ofPlatform().daemon().name("mailrestore-target-tables").start(target);
    try {
      EngineSchema.migrate(ds);
    } finally {
      try {
        target.get();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r
            ? r
            : new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while migrating the target's tables", e);
      }
    }
  }
}
