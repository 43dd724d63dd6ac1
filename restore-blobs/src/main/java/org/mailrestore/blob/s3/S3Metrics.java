package org.mailrestore.blob.s3;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * Turns the SDK's per-call metrics into Micrometer meters: calls and their duration by operation
 * and outcome, and the retries the SDK made (throttling, resets, timeouts).
 */
public final class S3Metrics implements MetricPublisher {

  private final MeterRegistry registry;

  public S3Metrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void publish(MetricCollection call) {
    String operation = first(call.metricValues(CoreMetric.OPERATION_NAME), "unknown");
    boolean ok =
        Boolean.TRUE.equals(first(call.metricValues(CoreMetric.API_CALL_SUCCESSFUL), false));
    Duration duration = first(call.metricValues(CoreMetric.API_CALL_DURATION), null);
    if (duration != null) {
      Timer.builder("mailrestore.s3.calls")
          .description("S3 calls (retries included) by operation and outcome")
          .tag("operation", operation)
          .tag("outcome", ok ? "success" : "failure")
          .register(registry)
          .record(duration);
    }
    int retries = first(call.metricValues(CoreMetric.RETRY_COUNT), 0);
    if (retries > 0) {
      Counter.builder("mailrestore.s3.retries")
          .description("S3 attempts retried after throttling, errors, resets or timeouts")
          .tag("operation", operation)
          .register(registry)
          .increment(retries);
    }
  }

  private static <T> T first(List<T> values, T otherwise) {
    return values.isEmpty() ? otherwise : values.get(0);
  }

  @Override
  public void close() {}
}
