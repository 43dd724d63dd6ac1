package org.mailrestore.maildir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportFormatContract;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.MailSourceContract.Mailbox;
import org.mailrestore.source.SourceReading;

/** The export contract for Maildir: one account exported, then read back as that user's Maildir. */
class MaildirExportContractTest extends ExportFormatContract {

  @Override
  protected ExportFormat format() {
    return ExportFormat.installed().require("maildir");
  }

  @Override
  protected MailSource reopen(Path out, List<Mailbox> exported) throws IOException {
    return MaildirSourceKind.ofOneUser(
            out, exported.get(0).user() + "@" + MailSourceContract.DOMAIN, "maildir")
        .open(SourceReading.localContext());
  }
}
