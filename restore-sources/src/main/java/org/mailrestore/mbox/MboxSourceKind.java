package org.mailrestore.mbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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

/** mbox files and trees of them, as one account (docs/mbox.md). */
public final class MboxSourceKind implements SourceKind {

  public static final String NAME = "mbox";
  public static final String ACCOUNT = "account";
  public static final String DIALECT = "dialect";
  public static final String LABELS = "labels";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "An mbox file, or a tree of them (Thunderbird, Apple Mail, mutt, Google Takeout), as one"
        + " account";
  }

  @Override
  public Location location() {
    return Location.FILE_OR_DIRECTORY;
  }

  @Override
  public boolean readsS3() {
    return false;
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.required(ACCOUNT, "The account's address, such as alice@example.org"),
        KindOption.choice(
            DIALECT,
            "How the files quote \"From \" lines: mboxrd, mboxo, mboxcl, mboxcl2, or auto (by"
                + " Content-Length when it is exact, else mboxrd)",
            "auto",
            List.of("auto", "mboxo", "mboxrd", "mboxcl", "mboxcl2")),
        KindOption.choice(
            LABELS,
            "Google Takeout's X-Gmail-Labels: tags (system labels pick the folder, the others"
                + " become tags) or folders (a message in no system folder goes to its first"
                + " label's folder)",
            "tags",
            List.of("tags", "folders")));
  }

  @Override
  public void check(SourceSpec spec, FieldProblems problems) {
    String account = spec.option(ACCOUNT);
    if (account != null && !TextRules.isAddress(account.toLowerCase(Locale.ROOT))) {
      problems.add(
          "source.options." + ACCOUNT,
          "must be an address such as alice@example.org, not \"" + account + "\"");
    }
  }

  @Override
  public String describe(SourceSpec spec) {
    return "mbox " + spec.location() + " (as " + spec.option(ACCOUNT) + ")";
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    Path location = Path.of(spec.location());
    if (!Files.exists(location)) {
      throw new NoSuchFileException(location.toAbsolutePath() + " does not exist");
    }
    return new MboxSource(
        location,
        spec.option(ACCOUNT),
        MboxDialect.parse(spec.option(DIALECT)),
        GmailLabels.Mode.parse(spec.option(LABELS)),
        context.fence(),
        context.limits().maxItemBytes());
  }

  /** An mbox file or tree as a source. */
  public static SourceSpec of(Path location, String account, String dialect, String labels) {
    return SourceSpec.of(
        NAME,
        location.toAbsolutePath().normalize().toString(),
        Map.of(ACCOUNT, account, DIALECT, dialect, LABELS, labels));
  }
}
