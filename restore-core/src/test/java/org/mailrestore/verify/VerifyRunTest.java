package org.mailrestore.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VerifyRunTest {

  @Test
  void aLongValueIsShownCutWithItsLength() {
    assertThat(VerifyRun.shown("short")).isEqualTo("short");
    assertThat(VerifyRun.shown(null)).isEqualTo("null");
    String picture = "data:image/jpeg;base64," + "A".repeat(400_000);
    String shown = VerifyRun.shown(picture);
    assertThat(shown).startsWith("data:image/jpeg;base64,AAA").endsWith("(400023 characters)");
    assertThat(shown.length()).isLessThan(160);
  }
}
