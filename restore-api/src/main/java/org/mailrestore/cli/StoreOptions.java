package org.mailrestore.cli;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.Restores;
import picocli.CommandLine.Mixin;

/**
 * What a local command works on: the bookkeeping database (with the mailstore in it) and the
 * target; S3 profiles come from the environment. It opens the engine's facade over them.
 */
final class StoreOptions {

  @Mixin DatabaseOptions database;

  @Mixin TargetOptions target;

  /** The engine, its default targets those named (or the mailstore, to read back). */
  Restores open() throws SQLException, IOException {
    return builder(target.targets()).build();
  }

  /** The engine to restore with: a target must be named; the caller adds its settings. */
  Restores.Builder forRestore() throws IOException {
    return builder(target.writableTargets());
  }

  private Restores.Builder builder(List<TargetSpec> specs) throws IOException {
    return Restores.builder()
        .database(database.jdbcUrl, database.user, database.password())
        .s3Profiles(EnvironmentS3Profiles.read(System.getenv()))
        .defaultTargets(specs);
  }
}
