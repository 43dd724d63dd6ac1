package org.mailrestore.blob.s3;

import java.util.Set;
import java.util.stream.Collectors;
import org.mailrestore.testkit.S3Server;
import org.mailrestore.testkit.TestS3;
import software.amazon.awssdk.services.s3.S3Client;

/** A fresh bucket on the test S3 server and a client built the way the service builds one. */
final class S3Fixture {

  final S3Server server = TestS3.server();
  final String bucket = TestS3.createBucket();
  final S3Client client =
      S3Clients.create(
          S3Settings.of(server.endpoint(), server.region(), server.accessKey(), server.secretKey()),
          null);

  S3Location location(String prefix) {
    return new S3Location(bucket, prefix);
  }

  /** The keys under a prefix, relative to it. */
  Set<String> keys(String prefix) {
    return client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents().stream()
        .map(o -> o.key().substring(prefix.length()))
        .collect(Collectors.toSet());
  }

  static String lastSegment(String key) {
    return key.substring(key.lastIndexOf('/') + 1);
  }
}
