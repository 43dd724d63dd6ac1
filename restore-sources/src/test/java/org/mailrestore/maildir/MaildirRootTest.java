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
            maildir, "Alice@Example.org", MaildirLayout.AUTO, MaildirReading.PLAIN);
    assertThat(one.accountIds()).containsExactly("alice");
    assertThat(one.account("alice"))
        .isInstanceOfSatisfying(
            Parsed.Ok.class,
            ok -> assertThat(((Account) ok.value()).name()).isEqualTo("alice@example.org"));
    assertThat(one.accountRef("alice"))
        .as("another account restored from the same directory is another account")
        .isNotEqualTo(
            MaildirSource.oneUser(
                    maildir, "alice@example.net", MaildirLayout.AUTO, MaildirReading.PLAIN)
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

  /** Subjects of an account's messages, by the name of their folder's directory. */
  private static java.util.List<String> messages(MaildirSource source, String account)
      throws IOException {
    java.util.List<String> found = new java.util.ArrayList<>();
    try (var stream =
        source.items(account, java.util.EnumSet.allOf(org.mailrestore.mail.ItemType.class))) {
      while (stream.hasNext()) {
        var entry = stream.next();
        assertThat(entry).isInstanceOf(org.mailrestore.source.ItemEntry.Decoded.class);
        var item = ((org.mailrestore.source.ItemEntry.Decoded) entry).item();
        var revision = item.latest().orElseThrow();
        found.add(
            item.type() == org.mailrestore.mail.ItemType.FOLDER
                ? "folder " + revision.name()
                : revision.folderId() + " " + revision.subject());
      }
    }
    return found;
  }

  @Test
  void aHomeHoldingAMaildirIsReadThere() throws IOException {
    // /var/vmail/<domain>/<user>/Maildir, as Dovecot's maildir:~/Maildir lays a home out.
    Path vmail = dir.resolve("vmail/example.org");
    Path maildir = vmail.resolve("alice/Maildir");
    Files.createDirectories(maildir.resolve("tmp"));
    Files.createDirectories(maildir.resolve("new"));
    Files.createDirectories(vmail.resolve("alice/sieve"));
    Files.createDirectories(maildir.resolve(".Sent/cur"));
    Files.createDirectories(maildir.resolve("cur"));
    Files.writeString(maildir.resolve("cur/1.host:2,S"), "Subject: inbox\n\nbody\n");
    Files.writeString(maildir.resolve(".Sent/cur/2.host:2,S"), "Subject: sent\n\nbody\n");
    Files.writeString(vmail.resolve("alice/sieve/filter.sieve"), "keep;\n");
    MaildirSource tree = new MaildirSource(vmail, "example.org", MaildirLayout.AUTO);
    assertThat(messages(tree, "alice")).containsExactly("2 inbox", "5 sent");
    MaildirSource one =
        MaildirSource.oneUser(
            vmail.resolve("alice"), "alice@example.org", MaildirLayout.AUTO, MaildirReading.PLAIN);
    assertThat(messages(one, "alice")).containsExactly("2 inbox", "5 sent");
    assertThatThrownBy(
            () -> new MaildirSource(vmail.resolve("alice"), "example.org", MaildirLayout.AUTO))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is one user's home (it holds Maildir/): name its account");
  }

  /**
   * Postfix and Dovecot keep virtual mailboxes as {@code /var/vmail/<domain>/<user>}: with
   * options.tree=domains each user is restored in its directory's domain, and a directory that
   * cannot be restored is an account that fails with the reason, never passed over in silence.
   */
  @Test
  void aRootOfDomainDirectoriesRestoresEachUserInItsDomain() throws IOException {
    Path vmail = dir.resolve("vmail");
    Files.createDirectories(vmail.resolve("example.org/alice/Maildir/cur"));
    Files.createDirectories(vmail.resolve("example.org/alice/Maildir/new"));
    Files.writeString(
        vmail.resolve("example.org/alice/Maildir/cur/1.host:2,S"), "Subject: a\n\nbody\n");
    Files.createDirectories(vmail.resolve("Example.COM/bob/cur"));
    Files.createDirectories(vmail.resolve("Example.COM/bob/new"));
    Files.writeString(vmail.resolve("Example.COM/bob/new/2.host"), "Subject: b\n\nbody\n");
    Files.createDirectories(vmail.resolve("example.org/John Smith/cur"));
    Files.createDirectories(vmail.resolve("not-a-domain/carol/cur"));
    Files.createDirectories(vmail.resolve("lost+found"));
    Files.createDirectories(vmail.resolve(".snapshot/hourly.0"));
    Files.writeString(vmail.resolve("README"), "not mail\n");

    MaildirSource tree = MaildirSource.ofDomains(vmail, MaildirLayout.AUTO, MaildirReading.PLAIN);
    assertThat(tree.accountIds())
        .containsExactly(
            "alice@example.org", "bob@example.com", "example.org/John Smith", "not-a-domain");
    assertThat(tree.account("bob@example.com"))
        .isInstanceOfSatisfying(
            Parsed.Ok.class,
            ok -> {
              Account bob = (Account) ok.value();
              assertThat(bob.name()).isEqualTo("bob@example.com");
              assertThat(bob.domain()).isEqualTo("example.com");
            });
    assertThat(tree.domains())
        .extracting(d -> ((Parsed.Ok<?>) d).location())
        .containsExactly("example.org", "example.com");
    assertThat(tree.account("example.org/John Smith"))
        .isInstanceOfSatisfying(
            Parsed.Failed.class,
            failed -> assertThat(failed.reason()).contains("local part").contains("rename"));
    assertThat(tree.account("not-a-domain"))
        .isInstanceOfSatisfying(
            Parsed.Failed.class,
            failed -> assertThat(failed.reason()).contains("not a domain name"));
    assertThat(messages(tree, "alice@example.org")).containsExactly("2 a");
    // A tree of users reports its left-out directories as failed accounts too.
    MaildirSource users =
        new MaildirSource(vmail.resolve("example.org"), "example.org", MaildirLayout.AUTO);
    assertThat(users.accountIds()).containsExactly("alice", "John Smith");
    assertThat(users.account("John Smith")).isInstanceOf(Parsed.Failed.class);

    FieldProblems problems = new FieldProblems();
    MaildirSourceKind kind = new MaildirSourceKind();
    kind.check(SourceSpec.of("maildir", vmail.toString(), Map.of("tree", "domains")), problems);
    assertThat(problems.list()).isEmpty();
    kind.check(
        SourceSpec.of(
            "maildir", vmail.toString(), Map.of("tree", "domains", "domain", "example.org")),
        problems);
    assertThat(problems.list())
        .extracting(FieldProblems.Problem::field)
        .containsExactly("source.options.domain");
  }
}
