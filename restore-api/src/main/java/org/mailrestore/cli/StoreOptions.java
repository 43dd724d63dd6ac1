package org.mailrestore.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.target.TargetSpec;
import picocli.CommandLine.Mixin;

/**
 * What a local command works on: the bookkeeping database (with the mailstore in it) and the
 * target; S3 profiles come from the environment.
 */
final class StoreOptions {

  @Mixin DatabaseOptions database;

  @Mixin TargetOptions target;

  /** A runtime whose default target is the one named (or the mailstore, to read back). */
  RestoreRuntime open() throws IOException {
    return open(target.target(), Concurrency.forMachine(), new SimpleMeterRegistry());
  }

  /** A runtime to restore with: a target must be named. */
  RestoreRuntime openForRestore(Concurrency concurrency, MeterRegistry registry)
      throws IOException {
    return open(target.writableTarget(), concurrency, registry);
  }

  private RestoreRuntime open(TargetSpec spec, Concurrency concurrency, MeterRegistry registry)
      throws IOException {
    return RestoreRuntime.builder()
        .database(database.jdbcUrl, database.user, database.password())
        .registry(registry)
        .s3Profiles(EnvironmentS3Profiles.read(System.getenv()))
        .concurrency(concurrency)
        .defaultTarget(spec)
        .build();
  }
}
