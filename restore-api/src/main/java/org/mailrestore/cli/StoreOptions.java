package org.mailrestore.cli;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.restore.Restores;
import org.springframework.util.unit.DataSize;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What a local command works on: the bookkeeping database (with the mailstore in it) and the
 * target; S3 profiles come from the environment. It opens the engine's facade over them.
 */
final class StoreOptions {

  @Mixin DatabaseOptions database;

  @Mixin TargetOptions target;

  @Option(
      names = "--max-item-size",
      paramLabel = "SIZE",
      defaultValue = "4GB",
      converter = DataSizes.class,
      description =
          "The largest item read, once decompressed (a blob, a message of an mbox or a Maildir,"
              + " an archive's entry), such as 512MB or 4GB: a larger one fails alone as"
              + " ITEM_TOO_LARGE, before memory or disk hold more of it (default: ${DEFAULT-VALUE})")
  DataSize maxItemSize;

  /** Parses sizes as the service's settings do (512MB, 4GB). */
  static final class DataSizes implements CommandLine.ITypeConverter<DataSize> {
    @Override
    public DataSize convert(String value) {
      DataSize size = DataSize.parse(value);
      if (size.toBytes() < 1) {
        throw new CommandLine.TypeConversionException("a size must be positive: " + value);
      }
      return size;
    }
  }

  /** The engine, its default targets those named (or the mailstore, to read back). */
  Restores open() throws SQLException, IOException {
    return builder(target.targets()).build();
  }

  /** The engine to restore with: a target must be named; the caller adds its settings. */
  Restores.Builder forRestore() throws IOException {
    return builder(target.writableTargets());
  }

  /** The engine over the bookkeeping alone, no target opened: to read what operations recorded. */
  Restores.Builder withoutTargets() throws IOException {
    return builder(List.of());
  }

  /**
   * The engine to resume an operation with: the operation's recorded targets decide where it writes
   * (decision 0077), so none need be named; the caller adds its settings.
   */
  Restores.Builder forResume() throws IOException {
    return builder(target.namedTargets());
  }

  /**
   * Checks the targets named here against those the operation recorded: none named, or the same. An
   * operation from before targets were recorded needs them named.
   *
   * @throws IllegalArgumentException saying what to name, or what the operation writes to
   */
  void checkResumeTargets(String operation, List<TargetSpec> recorded) {
    List<TargetSpec> named = target.namedTargets();
    if (recorded.isEmpty()) {
      target.writableTargets(); // says what to name when nothing is
      return;
    }
    if (!named.isEmpty() && !Set.copyOf(named).equals(Set.copyOf(recorded))) {
      throw new IllegalArgumentException(
          "operation "
              + operation
              + " writes to "
              + recorded.stream().map(t -> t.kind() + " " + t.location()).toList()
              + ", where it started: leave out the target flags, or name the same");
    }
  }

  private Restores.Builder builder(List<TargetSpec> specs) throws IOException {
    return Restores.builder()
        .database(database.jdbcUrl, database.user, database.password())
        .s3Profiles(EnvironmentS3Profiles.read(System.getenv()))
        .limits(StorageLimits.DEFAULT.withMaxItemBytes(maxItemSize.toBytes()))
        .defaultTargets(specs);
  }
}
