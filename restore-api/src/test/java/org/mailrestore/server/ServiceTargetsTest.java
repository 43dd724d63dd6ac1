package org.mailrestore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mailrestore.destination.TargetSpec;

/** Where the service's restores write: its mailstore, or the targets its settings list. */
class ServiceTargetsTest {

  private static ServerSettings with(List<ServerSettings.TargetSettings> targets) {
    return new ServerSettings(
        Path.of("/srv/mailrestore"),
        null,
        30,
        Duration.ofSeconds(25),
        Duration.ofSeconds(10),
        new ServerSettings.ConcurrencySettings(0, 0, 0),
        new ServerSettings.VolumeSettings("default", "local", null, "none", 4096, 0, null),
        targets,
        null,
        new ServerSettings.SourceSettings(null),
        new ServerSettings.SecuritySettings(null, null),
        null,
        null,
        null);
  }

  @Test
  void withNoTargetListedRestoresGoToTheMailstoreOnTheVolume() {
    List<TargetSpec> specs = RestoreConfiguration.targets(with(null));
    assertThat(specs).hasSize(1);
    assertThat(specs.get(0).kind()).isEqualTo("mailstore");
    assertThat(specs.get(0).location()).isEqualTo("/srv/mailrestore/volume");
  }

  @Test
  void listedTargetsReplaceTheMailstoreWithTheirOptions() {
    List<TargetSpec> specs =
        RestoreConfiguration.targets(
            with(
                List.of(
                    new ServerSettings.TargetSettings(
                        "imap", "imap://mail.example.org:143", Map.of("starttls", "required")))));
    assertThat(specs).hasSize(1);
    assertThat(specs.get(0).kind()).isEqualTo("imap");
    assertThat(specs.get(0).location()).isEqualTo("imap://mail.example.org:143");
    assertThat(specs.get(0).option("starttls")).isEqualTo("required");
  }

  @Test
  void aWrongTargetStopsTheStartNamingItsSetting() {
    assertThatThrownBy(() ->
            RestoreConfiguration.targets(
                with(List.of(new ServerSettings.TargetSettings("imapx", "imap://h", null)))))
        .hasMessageStartingWith("mailrestore.targets[0] (imapx): ");
    assertThatThrownBy(() ->
            RestoreConfiguration.targets(
                with(
                    List.of(
                        new ServerSettings.TargetSettings(
                            "imap", "imap://h", Map.of("starttls", "sometimes"))))))
        .hasMessageStartingWith("mailrestore.targets[0] (imap): ")
        .hasMessageContaining("starttls");
  }
}
