package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mailstore.MailstoreKind;
import org.mailrestore.mailstore.VolumeSpec;
import org.mailrestore.restore.Concurrency;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.testkit.TestDatabase;
import org.mailrestore.testkit.TestMariaDb;

class MailstorePoolTest {

  @Test
  void poolIsSizedFromTheConcurrencyAndExportsItsMetrics(@TempDir Path dir) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Concurrency concurrency = new Concurrency(3, 2, 8);
    try (TestDatabase db = TestMariaDb.createDatabase();
        RestoreRuntime store =
            RestoreRuntime.builder()
                .database(db.jdbcUrl(), db.server().user(), db.server().password())
                .defaultTarget(MailstoreKind.of(VolumeSpec.local("v", dir.toString())))
                .concurrency(concurrency)
                .registry(registry)
                .build()) {
      assertThat(((HikariDataSource) store.dataSource()).getMaximumPoolSize()).isEqualTo(8);
      assertThat(registry.get("hikaricp.connections.max").tag("pool", "mailstore").gauge().value())
          .isEqualTo(8.0);
      assertThat(registry.get("hikaricp.connections.active").gauge()).isNotNull();
    }
  }

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
