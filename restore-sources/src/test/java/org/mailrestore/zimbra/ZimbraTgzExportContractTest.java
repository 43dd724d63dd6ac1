package org.mailrestore.zimbra;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportFormatContract;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract.Mailbox;
import org.mailrestore.source.SourceReading;

/** The export contract for Zimbra account archives: a directory of them, read back as archives. */
class ZimbraTgzExportContractTest extends ExportFormatContract {

  @Override
  protected ExportFormat format() {
    return ExportFormat.installed().require(ZimbraTgzKind.NAME);
  }

  @Override
  protected MailSource reopen(Path out, List<Mailbox> exported) throws IOException {
    return ZimbraTgzKind.local(out).open(SourceReading.localContext());
  }
}
