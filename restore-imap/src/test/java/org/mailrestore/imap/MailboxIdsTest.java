package org.mailrestore.imap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MailboxIdsTest {

  @Test
  void aFolderSeenAgainIsNotAClashButTwoFoldersWithOneIdAre() {
    MailboxIds ids = new MailboxIds();
    assertThat(ids.note("x1", "arnold-j: Sent")).isNull();
    assertThat(ids.note("x1", "arnold-j: Sent")).isNull();
    assertThat(ids.isShared("x1")).isFalse();

    assertThat(ids.note("x1", "beck-s: kitchen__louise")).isEqualTo("arnold-j: Sent");
    assertThat(ids.isShared("x1")).isTrue();
    // listed again: the same clash is not news
    assertThat(ids.note("x1", "beck-s: kitchen__louise")).isNull();
    assertThat(ids.note("x1", "arnold-j: Sent")).isNull();
    assertThat(ids.clashes()).isEqualTo(1);
    assertThat(ids.note("x2", "beck-s: Sent")).isNull();
    assertThat(ids.isShared("x2")).isFalse();
    assertThat(ids.isShared(null)).isFalse();
  }

  @Test
  void theIdIsReadFromTheResponseCodeArguments() {
    assertThat(MailboxIds.parse("(4q2h1nnon4y5mjn3vakubw53)"))
        .isEqualTo("4q2h1nnon4y5mjn3vakubw53");
    assertThat(MailboxIds.parse(" ( F2212ea87 ) ")).isEqualTo("F2212ea87");
    assertThat(MailboxIds.parse("()")).isNull();
  }
}
