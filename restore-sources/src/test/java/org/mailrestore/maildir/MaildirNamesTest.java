package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MaildirNamesTest {

  @Test
  void theInfoIsReadAfterEachSeparatorServersUseForTheColon() {
    for (String separator : List.of(":", ";", "!")) {
      String name = "1700000000.M1P1.host,S=120" + separator + "2,FRSa";
      assertThat(MaildirNames.flags(name)).as(separator).isEqualTo("rf");
      assertThat(MaildirNames.state(name, List.of("Work")).tags()).as(separator).contains("Work");
      assertThat(MaildirNames.baseName(name)).as(separator).isEqualTo("1700000000.M1P1.host,S=120");
    }
    assertThat(MaildirNames.flags("1700000000.M1P1.host")).as("no info: unread").isEqualTo("u");
  }
}
