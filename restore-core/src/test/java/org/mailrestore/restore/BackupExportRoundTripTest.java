package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.verify.Verifier;

/**
 * A restored store exported as a backup in format v1 and restored again holds the same: every item,
 * folder, tag and blob.
 */
class BackupExportRoundTripTest {

  @TempDir Path dir;

  @Test
  void anExportRestoresToTheSameStore() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(3).withItemsPerAccount(300).withShares(false),
        backup);
    Path export = dir.resolve("export");
    try (RestoreFixture first = new RestoreFixture();
        RestoreFixture second = new RestoreFixture()) {
      assertThat(first.restore(RestoreRequest.local(backup.toString())).state())
          .isEqualTo(OperationState.COMPLETED);
      List<String> accounts =
          first
              .engine
              .bookkeeping()
              .accounts()
              .list(first.engine.operations().list(null, 0, 1).get(0))
              .stream()
              .map(AccountProgress::accountName)
              .toList();
      ExportReport report =
          first.runtime.export(ExportFormat.installed().require("backup"), null, accounts, export);
      assertThat(report.problems()).isEmpty();
      assertThat(report.items()).isPositive();

      OperationSummary again = second.restore(RestoreRequest.local(export.toString()));
      assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.items(second)).isEqualTo(StoreContents.items(first));
      assertThat(StoreContents.tags(second)).isEqualTo(StoreContents.tags(first));
      assertThat(second.verify(export, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
