package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceKind;
import org.mailrestore.source.SourceSpec;

/** Trees of Maildir mailboxes, one directory per user (docs/maildir.md). */
public final class MaildirSourceKind implements SourceKind {

  public static final String NAME = "maildir";
  public static final String DOMAIN = "domain";
  public static final String LAYOUT = "layout";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A tree of mailboxes: one directory per user, each becoming <directory>@<domain>";
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
        KindOption.required(DOMAIN, "The domain of the accounts, such as example.org"),
        KindOption.choice(
            LAYOUT,
            "Maildir (cur/new, .Folder directories), plain (a file per message in nested folders,"
                + " as the Enron corpus) or auto, per user",
            "auto",
            List.of("auto", "maildir", "plain")));
  }

  @Override
  public void check(SourceSpec spec, FieldProblems problems) {
    if (!MaildirNames.isDomainName(spec.option(DOMAIN))) {
      problems.add(
          "source.options." + DOMAIN,
          "must be a domain name (such as example.org), not \"" + spec.option(DOMAIN) + "\"");
    }
  }

  @Override
  public String describe(SourceSpec spec) {
    return "Maildir "
        + spec.location()
        + " ("
        + spec.option(LAYOUT)
        + ", @"
        + spec.option(DOMAIN)
        + ")";
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    return new MaildirSource(
        Path.of(spec.location()),
        spec.option(DOMAIN),
        MaildirLayout.parse(spec.option(LAYOUT)),
        blobs -> context.decorate(blobs, NAME));
  }

  /** A Maildir tree as a source. */
  public static SourceSpec of(Path root, String domain, String layout) {
    return SourceSpec.of(
        NAME, root.toAbsolutePath().normalize().toString(), Map.of(DOMAIN, domain, LAYOUT, layout));
  }
}
