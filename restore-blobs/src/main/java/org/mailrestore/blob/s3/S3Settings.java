package org.mailrestore.blob.s3;

import java.net.URI;
import java.time.Duration;

/**
 * How to reach an S3 service. Works with AWS and with other S3 servers (MinIO, Ceph, S3Proxy...):
 * set {@code endpoint} and usually {@code pathStyle}.
 *
 * @param endpoint null for AWS itself
 * @param accessKey null to use the default credential chain (environment, profile, instance role)
 * @param secretKey never printed or logged: {@link #toString()} leaves it out
 * @param maxConnections the HTTP connection pool: at least the requests in flight
 * @param callTimeout a whole call, retries included
 * @param attemptTimeout one attempt
 * @param maxAttempts attempts per call, with exponential backoff and jitter between them
 */
public record S3Settings(
    URI endpoint,
    String region,
    boolean pathStyle,
    String accessKey,
    String secretKey,
    int maxConnections,
    Duration callTimeout,
    Duration attemptTimeout,
    int maxAttempts) {

  public S3Settings {
    region = region == null || region.isBlank() ? "us-east-1" : region;
    if (maxConnections < 1 || maxAttempts < 1) {
      throw new IllegalArgumentException("maxConnections and maxAttempts must be at least 1");
    }
    if ((accessKey == null) != (secretKey == null)) {
      throw new IllegalArgumentException("give both an access key and a secret key, or neither");
    }
  }

  /** Settings for an S3-compatible server at {@code endpoint}, with sane defaults. */
  public static S3Settings of(URI endpoint, String region, String accessKey, String secretKey) {
    return new S3Settings(
        endpoint,
        region,
        endpoint != null,
        accessKey,
        secretKey,
        128,
        Duration.ofMinutes(10),
        Duration.ofMinutes(2),
        10);
  }

  public S3Settings withMaxConnections(int value) {
    return new S3Settings(
        endpoint,
        region,
        pathStyle,
        accessKey,
        secretKey,
        value,
        callTimeout,
        attemptTimeout,
        maxAttempts);
  }

  public S3Settings withMaxAttempts(int value) {
    return new S3Settings(
        endpoint,
        region,
        pathStyle,
        accessKey,
        secretKey,
        maxConnections,
        callTimeout,
        attemptTimeout,
        value);
  }

  @Override
  public String toString() {
    return "S3Settings[endpoint="
        + (endpoint == null ? "aws" : endpoint)
        + ", region="
        + region
        + ", pathStyle="
        + pathStyle
        + ", credentials="
        + (accessKey == null ? "default chain" : "access key " + accessKey)
        + ", maxConnections="
        + maxConnections
        + ", maxAttempts="
        + maxAttempts
        + "]";
  }
}
