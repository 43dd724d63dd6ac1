package org.mailrestore.destination;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;

/**
 * What a target kind opens with.
 *
 * @param bookkeeping the engine's database: a target may keep its own tables there (and the
 *     mailstore is there, so its rows and the engine's journal commit together)
 * @param environment where secrets come from (the process environment)
 */
public record TargetContext(
    DataSource bookkeeping,
    S3Profiles s3,
    StorageLimits limits,
    MeterRegistry registry,
    Map<String, String> environment) {

  public TargetContext {
    environment = Map.copyOf(environment);
  }
}
