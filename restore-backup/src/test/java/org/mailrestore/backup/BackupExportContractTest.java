package org.mailrestore.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportFormatContract;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract.Mailbox;
import org.mailrestore.source.SourceReading;

/** The export contract for our backup format: exported, then read back as a backup. */
class BackupExportContractTest extends ExportFormatContract {

  @Override
  protected ExportFormat format() {
    return ExportFormat.installed().require(BackupSourceKind.NAME);
  }

  @Override
  protected MailSource reopen(Path out, List<Mailbox> exported) throws IOException {
    return BackupSourceKind.local(out).open(SourceReading.localContext());
  }
}
