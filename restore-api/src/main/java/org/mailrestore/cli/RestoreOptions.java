package org.mailrestore.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.mailrestore.restore.ConflictPolicy;
import org.mailrestore.restore.Notice;
import org.mailrestore.restore.Pace;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Selection;
import org.mailrestore.source.SourceSpec;
import picocli.CommandLine.Option;

/** What to restore and how: the request of a local restore. */
final class RestoreOptions {

  @Option(
      names = "--policy",
      defaultValue = "merge",
      description =
          "For accounts that exist: skip, merge, replace or new-account (default: ${DEFAULT-VALUE})")
  String policy;

  @Option(
      names = "--as-of",
      description =
          "Restore the state at this instant (ISO-8601, e.g. 2025-06-30T00:00:00Z); default: the latest")
  Instant asOf;

  @Option(
      names = "--undelete-from",
      description =
          "Also bring back the items deleted from this instant on (e.g. 2025-06-01T00:00:00Z), as"
              + " they were just before their deletion")
  Instant undeleteFrom;

  @Option(
      names = "--undelete-to",
      description = "The end of the undelete window (exclusive; default: --as-of, or now)")
  Instant undeleteTo;

  @Option(
      names = "--account",
      description = "Restore only this account (address or backup id); repeatable")
  List<String> accounts = List.of();

  @Option(
      names = "--accounts-file",
      description =
          "Restore only the accounts listed in this file: one address or backup id per line;"
              + " blank lines and lines starting with # are ignored")
  Path accountsFile;

  @Option(names = "--domain", description = "Restore only accounts of this domain; repeatable")
  List<String> domains = List.of();

  @Option(names = "--skip-system-accounts", description = "Leave out the server's own accounts")
  boolean skipSystemAccounts;

  @Option(names = "--skip-aliases", description = "Do not restore aliases")
  boolean skipAliases;

  @Option(names = "--skip-lists", description = "Do not restore distribution lists")
  boolean skipLists;

  @Option(names = "--skip-cos", description = "Do not restore classes of service")
  boolean skipCos;

  @Option(names = "--skip-provisioning", description = "Restore data into existing accounts only")
  boolean skipProvisioning;

  @Option(
      names = "--provisioning-only",
      description = "Create domains and accounts, restore no items")
  boolean provisioningOnly;

  @Option(
      names = "--cluster-size",
      defaultValue = "0",
      description = "Items per transaction; 0 for the default (1000)")
  int clusterSize;

  @Option(
      names = "--concurrent-accounts",
      defaultValue = "0",
      description =
          "Accounts restored at once by each process; 0 for the process's bound (two per core)")
  int concurrentAccounts;

  @Option(
      names = "--max-items-per-second",
      description =
          "Restore at most this many items per second (to spare a live server); change it on a"
              + " running operation with `restore pace`")
  Double maxItemsPerSecond;

  @Option(
      names = "--max-mb-per-second",
      description = "Restore at most this many megabytes (10^6 bytes) of mail per second")
  Double maxMbPerSecond;

  @Option(
      names = "--into",
      description =
          "Restore the one --account into this other address (created if missing; the policy"
              + " applies to it): an account brought back beside the live one")
  String into;

  @Option(
      names = "--item",
      description =
          "Restore only this item (its id in the source) of the accounts; repeatable. Folders"
              + " and tags are restored too, so the item lands where it was")
  List<Integer> items = new ArrayList<>();

  @Option(
      names = "--folder",
      description =
          "Restore only the content of this folder and its subfolders (an id in the source, or a"
              + " path such as /Inbox/Projects); repeatable")
  List<String> folders = new ArrayList<>();

  /** The pace the flags ask for. */
  Pace pace() {
    return Pace.of(maxItemsPerSecond, maxMbPerSecond);
  }

  @Option(
      names = "--notify-owners",
      description =
          "When it ends, mail each restored account that its mail is back (through --smtp-host;"
              + " with restore start, through the service's SMTP server)")
  boolean notifyOwners;

  RestoreRequest request(SourceSpec source) throws IOException {
    Set<String> selected = new LinkedHashSet<>(accounts);
    if (accountsFile != null) {
      for (String line : Files.readAllLines(accountsFile)) {
        String account = line.strip();
        if (!account.isEmpty() && !account.startsWith("#")) {
          selected.add(account);
        }
      }
      if (selected.isEmpty()) {
        throw new IllegalArgumentException("the accounts file " + accountsFile + " lists none");
      }
    }
    Selection selection =
        new Selection(
                new LinkedHashSet<>(domains),
                selected,
                skipSystemAccounts,
                skipAliases,
                skipLists,
                skipCos,
                skipProvisioning,
                provisioningOnly)
            .withScope(into, new LinkedHashSet<>(items), new LinkedHashSet<>(folders));
    return new RestoreRequest(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        ConflictPolicy.parse(policy),
        null,
        concurrentAccounts,
        clusterSize,
        null,
        new Notice(true, notifyOwners));
  }
}
