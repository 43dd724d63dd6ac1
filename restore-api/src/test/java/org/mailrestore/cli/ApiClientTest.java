package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the admin CLI sends and shows: ids as one path segment, no password in its messages. */
class ApiClientTest {

  @TempDir Path dir;

  @Test
  void anIdIsOnePathSegmentWhateverItHolds() {
    assertThat(ApiClient.segment("../../../actuator/info")).doesNotContain("/");
    assertThat(ApiClient.segment("a b?c#d")).isEqualTo("a%20b%3Fc%23d");
  }

  @Test
  void aPasswordInTheServiceUrlIsNeverShown() throws Exception {
    assertThat(ApiClient.masked(URI.create("http://admin:s3cret@host:8080/")))
        .isEqualTo("http://admin:***@host:8080/");
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort(); // nobody listens once closed
    }
    ApiClient client = new ApiClient("http://admin:s3cret@127.0.0.1:" + closed, null);
    assertThatThrownBy(() -> client.get("api/v1/restores"))
        .hasMessageContaining("admin:***@")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret"));
  }

  @Test
  void aTokenFileOthersCanReadIsWarnedAbout() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(ApiOptions.exposure(token))
        .hasValueSatisfying(w -> assertThat(w).contains("chmod 600"));
    Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
    assertThat(ApiOptions.exposure(token)).isEmpty();
  }
}
