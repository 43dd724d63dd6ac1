package org.mailrestore.runtime;

import java.io.IOException;
import org.mailrestore.restore.Selection;
import org.mailrestore.restore.SourceOpener;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceKinds;
import org.mailrestore.source.SourceSpec;

/** Opens sources through the installed source kinds. */
final class Sources implements SourceOpener {

  private final SourceContext context;

  Sources(SourceContext context) {
    this.context = context;
  }

  @Override
  public MailSource open(SourceSpec spec, Selection selection) throws IOException {
    return SourceKinds.installed().open(spec, context.withAccounts(selection.accounts()));
  }

  @Override
  public String describe(SourceSpec spec) {
    return SourceKinds.installed().describe(spec);
  }
}
