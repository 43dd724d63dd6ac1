package org.mailrestore.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ModifiedUtf7Test {

  @Test
  void namesAreEncodedAndDecodedAsTheRfcShows() {
    // RFC 3501 §5.1.3's own example, and the cases around it.
    assertThat(ModifiedUtf7.encode("~peter/mail/台北/日本語"))
        .isEqualTo("~peter/mail/&U,BTFw-/&ZeVnLIqe-");
    assertThat(ModifiedUtf7.decode("~peter/mail/&U,BTFw-/&ZeVnLIqe-"))
        .isEqualTo("~peter/mail/台北/日本語");
    assertThat(ModifiedUtf7.encode("Tom & Jerry")).isEqualTo("Tom &- Jerry");
    assertThat(ModifiedUtf7.encode("Entwürfe")).isEqualTo("Entw&APw-rfe");
    for (String name : List.of("Éléments envoyés", "Входящие", "😀 emoji", "a&b", "")) {
      assertThat(ModifiedUtf7.decode(ModifiedUtf7.encode(name))).isEqualTo(name);
    }
    assertThatThrownBy(() -> ModifiedUtf7.decode("&U,BTFw"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFileNameIsDecodedOnlyWhenAnEncoderWouldHaveWrittenItSo() {
    // What Dovecot and Courier name Maildir++ directories (without Dovecot's UTF8 option).
    assertThat(ModifiedUtf7.decodeIfEncoded("Entw&APw-rfe")).isEqualTo("Entwürfe");
    assertThat(ModifiedUtf7.decodeIfEncoded("&AMk-l&AOk-ments envoy&AOk-s"))
        .isEqualTo("Éléments envoyés");
    assertThat(ModifiedUtf7.decodeIfEncoded("&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-"))
        .isEqualTo("Отправленные");
    assertThat(ModifiedUtf7.decodeIfEncoded("Tom &- Jerry")).isEqualTo("Tom & Jerry");
    assertThat(ModifiedUtf7.decodeIfEncoded("&2D3eAA-")).isEqualTo("😀");
    // Names written as they are (UTF-8 servers, other tools) stay as they are.
    for (String name :
        List.of(
            "Inbox",
            "R&D-Team", // "D" is no base64 of whole UTF-16 units
            "Tom & Jerry", // a shift never closed
            "Entwürfe", // not ASCII: not modified UTF-7
            "&AGE-", // "a" encoded: an encoder writes it as itself
            "&APw-&APw-", // two shifts in a row: an encoder writes one
            "&APx-", // bits left over that an encoder leaves zero
            "&2D0-", // half a surrogate pair
            "&-&")) {
      assertThat(ModifiedUtf7.decodeIfEncoded(name)).as(name).isEqualTo(name);
    }
  }
}
