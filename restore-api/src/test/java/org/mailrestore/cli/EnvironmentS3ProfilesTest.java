package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** S3 profiles as the CLI reads them from the environment. */
class EnvironmentS3ProfilesTest {

  @Test
  void s3ProfilesComeFromTheEnvironment() {
    var profiles =
        EnvironmentS3Profiles.read(
            Map.of(
                "MAILRESTORE_S3_ENDPOINT", "http://minio:9000",
                "MAILRESTORE_S3_ACCESS_KEY", "a",
                "MAILRESTORE_S3_SECRET_KEY", "s",
                "MAILRESTORE_S3_ARCHIVE_REGION", "eu-west-3",
                "UNRELATED", "x"));
    assertThat(profiles).containsOnlyKeys("default", "archive");
    assertThat(profiles.get("default").endpoint()).hasToString("http://minio:9000");
    assertThat(profiles.get("default").pathStyle()).isTrue();
    assertThat(profiles.get("archive").region()).isEqualTo("eu-west-3");
    assertThat(profiles.get("archive").accessKey()).isNull();
    assertThat(profiles.get("default").toString()).doesNotContain("s]").doesNotContain("secret");
  }
}
