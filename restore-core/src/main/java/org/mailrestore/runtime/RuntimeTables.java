package org.mailrestore.runtime;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import javax.sql.DataSource;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.bookkeeping.EngineSchema;

/**
 * The tables a runtime needs before it starts: the engine's, and those of its default target's kind
 * at the same time (on a fresh database each set is a few hundred milliseconds of DDL and Flyway,
 * most of it waiting).
 */
final class RuntimeTables {

  private RuntimeTables() {}

  static void migrate(DataSource ds, List<TargetSpec> defaultTargets) {
    List<TargetKind> kinds =
        defaultTargets.stream()
            .map(t -> TargetKind.installed().find(t.kind()))
            .flatMap(Optional::stream)
            .distinct()
            .toList();
    if (kinds.isEmpty()) {
      EngineSchema.migrate(ds);
      return;
    }
    FutureTask<Void> target =
        new FutureTask<>(() -> {
          for (TargetKind kind : kinds) {
            kind.prepare(ds);
          }
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
