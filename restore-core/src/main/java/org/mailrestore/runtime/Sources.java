package org.mailrestore.runtime;

import java.io.IOException;
import org.mailrestore.restore.Selection;
import org.mailrestore.restore.run.SourceOpener;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceSpec;

/** Opens sources through the installed source kinds, their account ids in ASCII. */
final class Sources implements SourceOpener {

  private final SourceContext context;

  Sources(SourceContext context) {
    this.context = context;
  }

  @Override
  public MailSource open(SourceSpec spec, Selection selection) throws IOException {
    return new AsciiAccountIds(spec.open(context.withAccounts(selection.accounts())));
  }

  @Override
  public String describe(SourceSpec spec) {
    return spec.describe();
  }
}
