package org.mailrestore.blob.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds S3 clients from {@link S3Settings}: timeouts, retries, connection pool, metrics. */
public final class S3Clients {

  private S3Clients() {}

  /**
   * @param metrics receives per-call metrics (attempts, retries, durations); null for none
   */
  public static S3Client create(S3Settings settings, MetricPublisher metrics) {
    S3ClientBuilder builder =
        S3Client.builder()
            .region(Region.of(settings.region()))
            .forcePathStyle(settings.pathStyle())
            // Checksums only where S3 requires them: servers other than AWS often lack the newer
            // CRC trailers, and every blob is verified by its SHA-256 anyway.
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .maxConnections(settings.maxConnections())
                    .connectionTimeout(java.time.Duration.ofSeconds(10))
                    .socketTimeout(java.time.Duration.ofSeconds(60))
                    .connectionAcquisitionTimeout(java.time.Duration.ofMinutes(2))
                    .tcpKeepAlive(true))
            .overrideConfiguration(o -> {
              o.apiCallTimeout(settings.callTimeout())
                  .apiCallAttemptTimeout(settings.attemptTimeout())
                  // Exponential backoff with jitter; no circuit breaker, so a burst of
                  // throttling slows the restore down instead of failing it.
                  .retryStrategy(
                      AwsRetryStrategy.standardRetryStrategy().toBuilder()
                          .maxAttempts(settings.maxAttempts())
                          .circuitBreakerEnabled(false)
                          .build());
              if (metrics != null) {
                o.addMetricPublisher(metrics);
              }
            });
    if (settings.endpoint() != null) {
      builder.endpointOverride(settings.endpoint());
    }
    if (settings.accessKey() != null) {
      builder.credentialsProvider(
          StaticCredentialsProvider.create(
              AwsBasicCredentials.create(settings.accessKey(), settings.secretKey())));
    } else {
      builder.credentialsProvider(DefaultCredentialsProvider.builder().build());
    }
    return builder.build();
  }
}
