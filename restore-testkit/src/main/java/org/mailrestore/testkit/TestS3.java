package org.mailrestore.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MinIOContainer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Decides, once per JVM, which S3 server the tests use:
 *
 * <ol>
 *   <li>the one named by {@code MAILRESTORE_TEST_S3_ENDPOINT} (with {@code _ACCESS_KEY}, {@code
 *       _SECRET_KEY}, optional {@code _REGION});
 *   <li>a Testcontainers MinIO (image pinned) when a Docker engine answers;
 *   <li>otherwise S3Proxy started in this JVM on a temporary directory.
 * </ol>
 *
 * Tests never share a bucket: each gets its own from {@link #createBucket()}.
 */
public final class TestS3 {

  /** The image Testcontainers starts; pinned so every machine tests the same server. */
  public static final String IMAGE = "minio/minio:RELEASE.2025-04-22T22-12-26Z";

  private static final Logger LOG = LoggerFactory.getLogger(TestS3.class);
  private static S3Server server;

  private TestS3() {}

  public static synchronized S3Server server() {
    if (server == null) {
      server = choose();
      LOG.info("tests use the {}", server);
    }
    return server;
  }

  private static S3Server choose() {
    String endpoint = System.getenv("MAILRESTORE_TEST_S3_ENDPOINT");
    if (endpoint != null && !endpoint.isBlank()) {
      return new S3Server(
          URI.create(endpoint.trim()),
          System.getenv().getOrDefault("MAILRESTORE_TEST_S3_REGION", "us-east-1"),
          System.getenv("MAILRESTORE_TEST_S3_ACCESS_KEY"),
          System.getenv("MAILRESTORE_TEST_S3_SECRET_KEY"),
          "configured");
    }
    if (dockerAvailable()) {
      return startContainer();
    }
    return startS3Proxy();
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  @SuppressWarnings("resource") // lives as long as the JVM; Testcontainers' reaper removes it
  private static S3Server startContainer() {
    MinIOContainer minio = new MinIOContainer(IMAGE);
    minio.start();
    return new S3Server(
        URI.create(minio.getS3URL()),
        "us-east-1",
        minio.getUserName(),
        minio.getPassword(),
        "testcontainers");
  }

  private static S3Server startS3Proxy() {
    try {
      Path dir = ScratchSpace.directory("mailrestore-test-s3");
      String access = "test-access";
      String secret = "test-secret-" + UUID.randomUUID();
      S3Proxy proxy =
          S3Proxy.builder()
              .blobStore(new FilesystemNio2BlobStore(dir.toString()))
              .endpoint(URI.create("http://127.0.0.1:0"))
              .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, access, secret)
              .ignoreUnknownHeaders(true)
              .jettyMaxThreads(200)
              .build();
      proxy.start();
      while (!"STARTED".equals(proxy.getState())) {
        Thread.sleep(10);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(proxy)));
      return new S3Server(
          URI.create("http://127.0.0.1:" + proxy.getPort()),
          "us-east-1",
          access,
          secret,
          "s3proxy");
    } catch (Exception e) {
      throw new IllegalStateException(
          "could not start S3Proxy for the tests: " + e.getMessage(), e);
    }
  }

  private static void stopQuietly(S3Proxy proxy) {
    try {
      proxy.stop();
    } catch (Exception e) {
      // The JVM is exiting.
    }
  }

  /** A client for the chosen server (or {@code server}), for test set-up. */
  public static S3Client client(S3Server server) {
    return S3Client.builder()
        .endpointOverride(server.endpoint())
        .region(Region.of(server.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .httpClientBuilder(Apache5HttpClient.builder().maxConnections(64))
        .build();
  }

  /** A new, empty bucket on the chosen server. */
  public static String createBucket() {
    String name =
        "mr-test-" + UUID.randomUUID().toString().substring(0, 12).toLowerCase(Locale.ROOT);
    try (S3Client s3 = client(server())) {
      s3.createBucket(b -> b.bucket(name));
    }
    return name;
  }

  /** Copies a directory tree into a bucket under {@code prefix} (e.g. a backup made on disk). */
  public static void upload(Path directory, String bucket, String prefix) throws IOException {
    String base =
        prefix == null || prefix.isEmpty() ? "" : (prefix.endsWith("/") ? prefix : prefix + "/");
    try (S3Client s3 = client(server());
        Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String key = base + directory.relativize(file).toString().replace('\\', '/');
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
      }
    }
  }

  /** Deletes every object of a bucket under {@code prefix}, as someone emptying it would. */
  public static void deletePrefix(String bucket, String prefix) {
    try (S3Client s3 = client(server())) {
      for (var page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))) {
        for (var object : page.contents()) {
          s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
        }
      }
    }
  }
}
