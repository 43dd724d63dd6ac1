package org.mailrestore.testkit;

import java.net.URI;

/**
 * An S3-compatible server the tests may create buckets on.
 *
 * @param origin how it was found: {@code configured}, {@code testcontainers} or {@code s3proxy}
 */
public record S3Server(
    URI endpoint, String region, String accessKey, String secretKey, String origin) {

  @Override
  public String toString() {
    return origin + " S3 at " + endpoint; // never the keys
  }

  /** The same server reached through another endpoint (a proxy in front of it). */
  public S3Server via(URI proxyEndpoint) {
    return new S3Server(proxyEndpoint, region, accessKey, secretKey, origin + " via proxy");
  }
}
