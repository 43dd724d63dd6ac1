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

  @Test
  void aReadProgressLineNamesWhatItCounts() {
    var s = new org.mailrestore.restore.ReadCounter.Snapshot(3, 5, 1200, 30, 70, 12_500_000);
    assertThat(ReadProgress.line("verify", s, 10))
        .isEqualTo(
            "verify   2/5 accounts, 1,200 messages, 30 folders, 70 other items, 12.5 MB,"
                + " 130 items/s, ETA 15s");
    var export = new org.mailrestore.restore.ReadCounter.Snapshot(1, 0, 10, 2, 0, 0);
    assertThat(ReadProgress.line("export", export, 0))
        .isEqualTo("export   account 1, 10 messages, 2 folders, 0 other items");
  }
}
