package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The root of a tree holds the users; a root that cannot be one is refused with the reason. */
class MaildirRootTest {

  @TempDir Path dir;

  @Test
  void oneUsersMaildirGivenAsTheRootIsRefusedNotTakenForUsersCurNewAndTmp() throws IOException {
    Path maildir = dir.resolve("Maildir");
    for (String sub : new String[] {"cur", "new", "tmp", ".Sent/cur"}) {
      Files.createDirectories(maildir.resolve(sub));
    }
    Files.writeString(maildir.resolve("cur/1.host:2,S"), "Subject: x\n\nbody\n");
    assertThatThrownBy(() -> new MaildirSource(maildir, "example.org", MaildirLayout.AUTO))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is one user's Maildir (it has cur/ and new/)")
        .hasMessageContaining("one directory per user");

    Files.createDirectories(dir.resolve("tree"));
    Files.move(maildir, dir.resolve("tree/alice"));
    assertThat(new MaildirSource(dir.resolve("tree"), "example.org", MaildirLayout.AUTO).leftOut())
        .isEmpty();
  }

  @Test
  void aRootWithoutUsersIsRefusedWithWhatWasLeftOut() throws IOException {
    Files.createDirectories(dir.resolve("Bad Name"));
    Files.writeString(dir.resolve("SHA256SUMS"), "not a user\n");
    assertThatThrownBy(() -> new MaildirSource(dir, "example.org", MaildirLayout.AUTO))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no user directories in " + dir)
        .hasMessageContaining("Bad Name: cannot be an address's local part");
  }
}
