package org.mailrestore.dav;

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

/**
 * A vdir ({@code --vdir DIR}): contacts, appointments and tasks as {@code .vcf} and {@code .ics}
 * files, a directory per collection, as vdirsyncer, Evolution and {@code export vdir} write them
 * (docs/dav-target.md). Its directories are accounts named by their addresses, or with {@code
 * --vdir-account} one account's collections.
 */
public final class VdirSourceKind implements SourceKind {

  public static final String NAME = "vdir";
  static final String ACCOUNT = "account";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A vdir: a directory per account (its address), a directory per address book or"
        + " calendar, a .vcf or .ics file per item (vdirsyncer, Evolution, export vdir)";
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
            ACCOUNT,
            "The account the directory's collections are, when it is one account's vdir (else"
                + " its directories are accounts named by their addresses)"));
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
    return "vdir " + spec.location();
  }

  @Override
  public MailSource open(SourceSpec spec, SourceContext context) throws IOException {
    return new VdirSource(
        Path.of(spec.location()),
        spec.option(ACCOUNT),
        context.fence(),
        context.limits().maxItemBytes());
  }

  /** A vdir of accounts as a source. */
  public static SourceSpec of(Path location) {
    return SourceSpec.of(NAME, location.toAbsolutePath().normalize().toString(), Map.of());
  }
}
