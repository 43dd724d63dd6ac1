package org.mailrestore.cli;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.restore.Restores;
import org.mailrestore.verify.Verifier;
import org.mailrestore.verify.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code mailrestore verify}: compare a restored mailstore with its backup. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Compare a mailstore with the backup it was restored from: accounts, folders, items,"
            + " flags, tags, grants, mountpoints and every blob's bytes. Prints what differs."
            + " With --operation: what that operation restored, as it restored it.")
final class VerifyCommand implements Callable<Integer> {

  @Mixin SourceOptions source;

  @Option(
      names = "--operation",
      description =
          "Compare what this operation restored with its own source, as it restored it: its point"
              + " in time, its accounts under the names it gave them (--into, --policy"
              + " new-account), into the targets it recorded; the items its report lists are excused. No"
              + " source flag then")
  String operation;

  @Option(
      names = "--account",
      description = "Compare only this account (address or backup id); repeatable")
  List<String> accounts = List.of();

  @Option(names = "--as-of", description = "Compare with the state at this instant (as restored)")
  Instant asOf;

  @Option(
      names = "--undelete-from",
      description = "Compare with a restore that undeleted items from this instant on")
  Instant undeleteFrom;

  @Option(names = "--undelete-to", description = "The end of that undelete window")
  Instant undeleteTo;

  @Option(names = "--skip-blobs", description = "Do not read blobs back (much faster; rows only)")
  boolean skipBlobs;

  @Mixin StoreOptions store;

  @Mixin JsonOutput output;

  @Mixin ReadProgress progress;

  @Override
  public Integer call() throws Exception {
    if (operation != null) {
      return verifyOperation();
    }
    try (Restores restores = store.open()) {
      Verifier.Options options =
          Verifier.Options.defaults()
              .withPointInTime(new PointInTime(asOf, undeleteFrom, undeleteTo))
              .withCheckBlobs(!skipBlobs);
      if (!accounts.isEmpty()) {
        options = options.withAccounts(Set.copyOf(accounts));
      }
      ReadCounter counter = new ReadCounter();
      VerifyReport report;
      try (var shown = progress.start("verify", counter, output.people())) {
        report = restores.verify(source.source(), null, options, counter);
      }
      return print(report);
    }
  }

  /** The operation's own source, point in time, names and targets: none may be given here. */
  private Integer verifyOperation() throws Exception {
    if (source.given() || asOf != null || undeleteFrom != null || undeleteTo != null) {
      throw new IllegalArgumentException(
          "verify --operation compares with the operation's own source and point in time:"
              + " leave out the source flags, --as-of and --undelete-*");
    }
    try (Restores restores = store.open()) {
      ReadCounter counter = new ReadCounter();
      VerifyReport report;
      try (var shown = progress.start("verify", counter, output.people())) {
        report = restores.verifyOperation(operation, Set.copyOf(accounts), !skipBlobs, counter);
      }
      return print(report);
    }
  }

  private Integer print(VerifyReport report) {
    if (output.json) {
      output.print(Report.verifyJson(report));
    } else {
      Report.verify(System.out, report);
    }
    return report.identical() ? ExitCodes.OK : ExitCodes.PARTIAL;
  }
}
