package org.mailrestore.sql;

import java.io.IOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Versioned migrations of one set of tables (the engine's, the mailstore's, a target's records),
 * each with a history table of its own. A database that holds the tables from before they had their
 * history is taken as it is: each first script creates only what is missing.
 *
 * <p>Flyway runs only when the set's history lacks one of its scripts ({@link AppliedScripts},
 * decision 0063): on a database that has them all it would only configure itself and validate,
 * about 60 ms of a cold command's CPU.
 *
 * <p>A set is migrated once per pool: a later call waits for the first or finds it done, without
 * configuring Flyway again (a tenth of a second of a cold command). Different sets migrate at the
 * same time; a failed run is forgotten, so the next call tries again.
 */
public final class Migrations {

  /** Per pool, per history table: the run that migrated it, or is migrating it. */
  private static final Map<DataSource, Map<String, FutureTask<Integer>>> RUNS = new WeakHashMap<>();

  private Migrations() {}

  /**
   * Applies the scripts under {@code location} the database does not have yet; returns how many
   * were applied (0 when this pool had them applied already).
   */
  public static int migrate(DataSource dataSource, String location, String historyTable) {
    FutureTask<Integer> run;
    boolean mine = false;
    synchronized (RUNS) {
      Map<String, FutureTask<Integer>> runs =
          RUNS.computeIfAbsent(dataSource, d -> new HashMap<>());
      run = runs.get(historyTable);
      if (run == null) {
        run = new FutureTask<>(() -> apply(dataSource, location, historyTable));
        runs.put(historyTable, run);
        mine = true;
      }
    }
    if (mine) {
      run.run();
    }
    try {
      int applied = run.get();
      return mine ? applied : 0;
    } catch (ExecutionException e) {
      synchronized (RUNS) {
        Map<String, FutureTask<Integer>> runs = RUNS.get(dataSource);
        if (runs != null) {
          runs.remove(historyTable, run);
        }
      }
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException("migrating " + historyTable, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while migrating " + historyTable, e);
    }
  }

  private static int apply(DataSource dataSource, String location, String historyTable)
      throws SQLException, IOException {
    if (AppliedScripts.upToDate(dataSource, location, historyTable)) {
      return 0;
    }
    return Flyway.configure()
        .dataSource(dataSource)
        .locations(location)
        .table(historyTable)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate()
        .migrationsExecuted;
  }
}
