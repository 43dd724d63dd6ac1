package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.SourceSpec;

/** The root of a tree holds the users; a root that cannot be one is refused with the reason. */
class MaildirRootTest {

  @TempDir Path dir;

  @Test
  void oneUsersMaildirIsRestoredAsTheAccountNamedAndOtherwiseRefused() throws IOException {
    Path maildir = dir.resolve("Maildir");
    for (String sub : new String[] {"cur", "new", "tmp", ".Sent/cur"}) {
      Files.createDirectories(maildir.resolve(sub));
    }
    Files.writeString(maildir.resolve("cur/1.host:2,S"), "Subject: x\n\nbody\n");
    assertThatThrownBy(() -> new MaildirSource(maildir, "example.org", MaildirLayout.AUTO))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is one user's Maildir (it has cur/ and new/): name its account")
        .hasMessageContaining("--maildir-account alice@example.org");

    MaildirSource one =
        MaildirSource.oneUser(
            maildir,
            "Alice@Example.org",
            MaildirLayout.AUTO,
            java.util.function.UnaryOperator.identity());
    assertThat(one.accountIds()).containsExactly("alice");
    assertThat(one.account("alice"))
        .isInstanceOfSatisfying(
            Parsed.Ok.class,
            ok -> assertThat(((Account) ok.value()).name()).isEqualTo("alice@example.org"));
    assertThat(one.accountRef("alice"))
        .as("another account restored from the same directory is another account")
        .isNotEqualTo(
            MaildirSource.oneUser(maildir, "alice@example.net", MaildirLayout.AUTO, b -> b)
                .accountRef("alice"));

    FieldProblems problems = new FieldProblems();
    MaildirSourceKind kind = new MaildirSourceKind();
    kind.check(SourceSpec.of("maildir", maildir.toString(), Map.of()), problems);
    kind.check(
        SourceSpec.of("maildir", maildir.toString(), Map.of("account", "not an address")),
        problems);
    kind.check(
        SourceSpec.of(
            "maildir",
            maildir.toString(),
            Map.of("account", "alice@example.org", "domain", "example.net")),
        problems);
    assertThat(problems.list())
        .extracting(FieldProblems.Problem::field)
        .containsExactly(
            "source.options.domain", "source.options.account", "source.options.domain");

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
