package org.mailrestore.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AsciiAccountIdsTest {

  @Test
  void idsOfPlainAsciiPassAsTheyAreAndOthersComeBackAsTheyWere() {
    for (String plain : List.of("anna", "0f3c-uuid", "ann@example.org", "Bad Name", "x=y+z")) {
      assertThat(AsciiAccountIds.encode(plain)).isEqualTo(plain);
      assertThat(AsciiAccountIds.decode(plain)).isEqualTo(plain);
    }
    for (String odd :
        List.of("josé", "jos%C3%A9", "50%", "%", "tab\there", "日本@例え.jp", "a%zz", "\u0001")) {
      String kept = AsciiAccountIds.encode(odd);
      assertThat(kept.chars()).as(kept).allMatch(c -> c >= 0x20 && c < 0x7F);
      assertThat(AsciiAccountIds.decode(kept)).as(odd).isEqualTo(odd);
    }
    assertThat(AsciiAccountIds.encode("josé")).isEqualTo("jos%C3%A9");
  }
}
