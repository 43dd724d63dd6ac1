package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;

/** Trees of Maildir mailboxes, one directory per user (docs/maildir.md). */
public final class MaildirSourceKind implements SourceKind {

  public static final String NAME = "maildir";
  public static final String DOMAIN = "domain";
  public static final String TREE = "tree";
  public static final String LAYOUT = "layout";
  public static final String ACCOUNT = "account";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A tree of mailboxes: one directory per user, each becoming <directory>@<domain>, or"
        + " one per domain holding its users (/var/vmail/<domain>/<user>); or one user's mailbox"
        + " as the account named";
  }

  @Override
  public Location location() {
    return Location.DIRECTORY;
  }

  @Override
  public boolean readsS3() {
    return false;
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.optional(
            DOMAIN, "The domain of the accounts, such as example.org (a tree of users)"),
        KindOption.choice(
            TREE,
            "What the directories of the root are: users (each <directory>@<domain>) or domains,"
                + " each holding its users' directories as /var/vmail/<domain>/<user> (each"
                + " <user>@<domain>; no domain option then)",
            "users",
            List.of("users", "domains")),
        KindOption.optional(
            ACCOUNT,
            "The directory is one user's mailbox (~alice/Maildir), restored as this account, such"
                + " as alice@example.org"),
        KindOption.choice(
            LAYOUT,
            "Maildir (cur/new, .Folder directories), plain (a file per message in nested folders,"
                + " as the Enron corpus) or auto, per user",
            "auto",
            List.of("auto", "maildir", "plain")));
  }

  @Override
  public void check(SourceSpec spec, FieldProblems problems) {
    String domain = spec.option(DOMAIN);
    String account = spec.option(ACCOUNT);
    if (domains(spec)) {
      if (domain != null) {
        problems.add(
            "source.options." + DOMAIN,
            "is not given with options.tree=domains: each domain is its directory's name");
      }
      if (account != null) {
        problems.add(
            "source.options." + ACCOUNT,
            "names one user's mailbox; options.tree=domains is a tree of domains");
      }
    } else if (account != null) {
      if (!TextRules.isAddress(account.toLowerCase(Locale.ROOT))) {
        problems.add(
            "source.options." + ACCOUNT,
            "must be an address such as alice@example.org, not \"" + account + "\"");
      } else if (domain != null
          && !account.toLowerCase(Locale.ROOT).endsWith("@" + domain.toLowerCase(Locale.ROOT))) {
        problems.add(
            "source.options." + DOMAIN,
            "is the domain of a tree of users; the account " + account + " names its own");
      }
    } else if (domain == null) {
      problems.add(
          "source.options." + DOMAIN,
          "is required: the domain of the tree's users (or options.tree=domains for a root of"
              + " domain directories, options.account for one user's mailbox)");
    } else if (!MaildirNames.isDomainName(domain)) {
      problems.add(
          "source.options." + DOMAIN,
          "must be a domain name (such as example.org), not \"" + domain + "\"");
    }
  }

  @Override
  public String describe(SourceSpec spec) {
    return "Maildir "
        + spec.location()
        + " ("
        + spec.option(LAYOUT)
        + (spec.option(ACCOUNT) != null
            ? ", as " + spec.option(ACCOUNT)
            : domains(spec) ? ", a directory per domain" : ", @" + spec.option(DOMAIN))
        + ")";
  }

  private static boolean domains(SourceSpec spec) {
    return "domains".equals(spec.option(TREE));
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    MaildirLayout layout = MaildirLayout.parse(spec.option(LAYOUT));
    MaildirReading reading = MaildirReading.of(context);
    Path location = Path.of(spec.location());
    if (spec.option(ACCOUNT) != null) {
      return MaildirSource.oneUser(location, spec.option(ACCOUNT), layout, reading);
    }
    return domains(spec)
        ? MaildirSource.ofDomains(location, layout, reading)
        : new MaildirSource(location, spec.option(DOMAIN), layout, reading);
  }

  /** One user's mailbox as a source, restored as {@code address}. */
  public static SourceSpec ofOneUser(Path dir, String address, String layout) {
    return SourceSpec.of(
        NAME,
        dir.toAbsolutePath().normalize().toString(),
        Map.of(ACCOUNT, address, LAYOUT, layout));
  }

  /** A tree of domain directories, each holding one directory per user, as a source. */
  public static SourceSpec ofDomains(Path root, String layout) {
    return SourceSpec.of(
        NAME,
        root.toAbsolutePath().normalize().toString(),
        Map.of(TREE, "domains", LAYOUT, layout));
  }

  /** A Maildir tree as a source. */
  public static SourceSpec of(Path root, String domain, String layout) {
    return SourceSpec.of(
        NAME, root.toAbsolutePath().normalize().toString(), Map.of(DOMAIN, domain, LAYOUT, layout));
  }
}
