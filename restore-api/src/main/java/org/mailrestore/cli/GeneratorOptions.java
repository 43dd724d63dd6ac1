package org.mailrestore.cli;

import org.mailrestore.backup.ItemLayout;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.blob.BlobCompression;
import picocli.CommandLine.Option;

/** The shape of a generated backup. */
final class GeneratorOptions {

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Seed: the same seed, the same backup (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--accounts",
      defaultValue = "8",
      description = "Accounts (default: ${DEFAULT-VALUE})")
  int accounts;

  @Option(
      names = "--domains",
      defaultValue = "3",
      description = "Domains the accounts are spread over (default: ${DEFAULT-VALUE})")
  int domains;

  @Option(
      names = "--items",
      defaultValue = "500",
      description = "Items per account (default: ${DEFAULT-VALUE})")
  int items;

  @Option(
      names = "--system-accounts",
      defaultValue = "1",
      description = "Server accounts (GAL sync, spam) to add (default: ${DEFAULT-VALUE})")
  int systemAccounts;

  @Option(
      names = "--layout",
      defaultValue = "packed",
      description = "Item layout: packed or loose (default: ${DEFAULT-VALUE})")
  String layout;

  @Option(
      names = "--blob-compression",
      defaultValue = "none",
      description = "Backup blobs: none, gzip or zstd (default: ${DEFAULT-VALUE})")
  String blobCompression;

  @Option(
      names = "--large-rate",
      defaultValue = "0.0005",
      description = "Share of 1-8 MB messages (default: ${DEFAULT-VALUE})")
  double largeRate;

  @Option(names = "--no-shares", description = "Generate no grants and mountpoints")
  boolean noShares;

  @Option(
      names = "--threads",
      defaultValue = "0",
      description = "Accounts generated at once; 0 for one per core")
  int threads;

  GeneratorSpec spec() {
    return GeneratorSpec.defaults()
        .withSeed(seed)
        .withAccounts(accounts)
        .withDomains(domains)
        .withItemsPerAccount(items)
        .withSystemAccounts(systemAccounts)
        .withLayout(ItemLayout.valueOf(layout.trim().toUpperCase(java.util.Locale.ROOT)))
        .withBlobCompression(BlobCompression.parse(blobCompression))
        .withLargeRate(largeRate)
        .withShares(!noShares)
        .withThreads(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
  }
}
