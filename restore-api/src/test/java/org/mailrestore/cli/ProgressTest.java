package org.mailrestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void remainingTimesReadAsPeopleSayThem() {
    assertThat(Progress.duration(0)).isEqualTo("0s");
    assertThat(Progress.duration(59)).isEqualTo("59s");
    assertThat(Progress.duration(60)).isEqualTo("1m 00s");
    assertThat(Progress.duration(725)).isEqualTo("12m 05s");
    assertThat(Progress.duration(5 * 3600)).as("five hours, not 300:00").isEqualTo("5h 00m");
    assertThat(Progress.duration(3600 + 23 * 60 + 59)).isEqualTo("1h 23m");
  }
}
