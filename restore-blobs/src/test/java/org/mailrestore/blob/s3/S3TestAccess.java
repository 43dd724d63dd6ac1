package org.mailrestore.blob.s3;

import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;

/** The S3 fixture for tests outside this package. */
public final class S3TestAccess {

  private final S3Fixture fixture = new S3Fixture();

  public S3Client client() {
    return fixture.client;
  }

  public S3Location location(String prefix) {
    return fixture.location(prefix);
  }

  /** The last segments of the keys under a prefix. */
  public Set<String> keys(String prefix) {
    return fixture.keys(prefix).stream().map(S3Fixture::lastSegment).collect(Collectors.toSet());
  }
}
