package org.mailrestore.backup.generate;

import java.time.Instant;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.blob.BlobCompression;

/**
 * What the generator writes. The same spec always produces the same backup, byte for byte.
 *
 * @param seed every random choice derives from it
 * @param accounts ordinary accounts
 * @param domains how many domains the accounts are spread over
 * @param itemsPerAccount content items (messages, contacts, appointments...) per account
 * @param deletedFraction share of content items whose last revision is a deletion
 * @param historyFraction share of items with more than one revision (read, moved, flagged, renamed)
 * @param sharedFraction share of messages that are list mail also delivered to other accounts (the
 *     same bytes, so the same blob: what deduplication saves)
 * @param largeRate share of messages of 1-8 MB with an attachment (the tail of real mailboxes)
 * @param shares whether accounts share folders (grants) and mount each other's (mountpoints)
 * @param foldersPerAccount user folders per account, nested up to {@code maxFolderDepth}
 * @param systemAccounts extra server accounts (GAL sync, spam training) flagged {@code system}
 * @param createdAt the backup's time: every revision starts before it
 * @param threads accounts generated at once (the output does not depend on it)
 */
public record GeneratorSpec(
    long seed,
    int accounts,
    int domains,
    int itemsPerAccount,
    ItemLayout layout,
    BlobCompression blobCompression,
    double deletedFraction,
    double historyFraction,
    double sharedFraction,
    double largeRate,
    boolean shares,
    int foldersPerAccount,
    int maxFolderDepth,
    int systemAccounts,
    Instant createdAt,
    int threads) {

  public static final Instant DEFAULT_CREATED_AT = Instant.parse("2026-01-01T00:00:00Z");

  public GeneratorSpec {
    if (accounts < 0 || domains < 1 || itemsPerAccount < 0 || systemAccounts < 0) {
      throw new IllegalArgumentException(
          "accounts, items and system accounts must not be negative; domains at least 1");
    }
    if (maxFolderDepth < 1 || foldersPerAccount < 0) {
      throw new IllegalArgumentException("folder depth must be at least 1");
    }
    threads = Math.max(1, threads);
  }

  /** A small, realistic backup: 8 accounts over 3 domains, 500 items each, with shares. */
  public static GeneratorSpec defaults() {
    return new GeneratorSpec(
        42,
        8,
        3,
        500,
        ItemLayout.PACKED,
        BlobCompression.NONE,
        0.05,
        0.2,
        0.1,
        0.0005,
        true,
        12,
        4,
        0,
        DEFAULT_CREATED_AT,
        Runtime.getRuntime().availableProcessors());
  }

  public GeneratorSpec withSeed(long value) {
    return new GeneratorSpec(
        value,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withAccounts(int value) {
    return new GeneratorSpec(
        seed,
        value,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withDomains(int value) {
    return new GeneratorSpec(
        seed,
        accounts,
        value,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withItemsPerAccount(int value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        value,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withLayout(ItemLayout value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        value,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withBlobCompression(BlobCompression value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        value,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withLargeRate(double value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        value,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withShares(boolean value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        value,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withSystemAccounts(int value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        value,
        createdAt,
        threads);
  }

  public GeneratorSpec withThreads(int value) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        value);
  }

  public GeneratorSpec withFractions(double deleted, double history, double shared) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deleted,
        history,
        shared,
        largeRate,
        shares,
        foldersPerAccount,
        maxFolderDepth,
        systemAccounts,
        createdAt,
        threads);
  }

  public GeneratorSpec withFolders(int perAccount, int maxDepth) {
    return new GeneratorSpec(
        seed,
        accounts,
        domains,
        itemsPerAccount,
        layout,
        blobCompression,
        deletedFraction,
        historyFraction,
        sharedFraction,
        largeRate,
        shares,
        perAccount,
        maxDepth,
        systemAccounts,
        createdAt,
        threads);
  }
}
