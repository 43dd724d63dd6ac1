package org.mailrestore.mail;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class KeywordsTest {

  @Test
  void aTagBecomesAnAtomUnlikeTheFlagsAndTheOthers() {
    assertThat(Keywords.of("Très important", Set.of())).isEqualTo("Tr_s_important");
    assertThat(Keywords.of("$Forwarded", Set.of())).isEqualTo("T$Forwarded");
    assertThat(Keywords.of("$mdnsent", Set.of())).isEqualTo("T$mdnsent");
    assertThat(Keywords.of("$Junk", Set.of())).as("mail clients' own keywords").isEqualTo("$Junk");
    assertThat(Keywords.of("\\Seen", Set.of())).isEqualTo("_Seen");
    assertThat(Keywords.of("", Set.of())).isEqualTo("T");
    assertThat(Keywords.of("work", Set.of("work"))).isEqualTo("work_2");
    assertThat(Keywords.of("Work", Set.of("work", "work_2"))).isEqualTo("Work_3");
  }

  @Test
  void junkVerdictsAndFlagsAreToldFromTags() {
    assertThat(Keywords.isJunkVerdict("$NotJunk")).isTrue();
    assertThat(Keywords.isJunkVerdict("NonJunk")).isTrue();
    assertThat(Keywords.isJunkVerdict("junkmail")).isFalse();
    assertThat(Keywords.flagOf("$forwarded")).isEqualTo('w');
    assertThat(Keywords.flagOf("$MDNSent")).isEqualTo('n');
    assertThat((int) Keywords.flagOf("Work")).isZero();
  }
}
