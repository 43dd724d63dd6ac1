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
 * @param metadataOnly items only: digests and sizes are drawn, no blob is written (for benchmarks
 *     and tests of the metadata path; such a backup cannot be restored in full)
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
    int threads,
    boolean metadataOnly) {

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
    return new Builder().build();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public GeneratorSpec withSeed(long value) {
    return toBuilder().seed(value).build();
  }

  public GeneratorSpec withAccounts(int value) {
    return toBuilder().accounts(value).build();
  }

  public GeneratorSpec withDomains(int value) {
    return toBuilder().domains(value).build();
  }

  public GeneratorSpec withItemsPerAccount(int value) {
    return toBuilder().itemsPerAccount(value).build();
  }

  public GeneratorSpec withLayout(ItemLayout value) {
    return toBuilder().layout(value).build();
  }

  public GeneratorSpec withBlobCompression(BlobCompression value) {
    return toBuilder().blobCompression(value).build();
  }

  public GeneratorSpec withLargeRate(double value) {
    return toBuilder().largeRate(value).build();
  }

  public GeneratorSpec withShares(boolean value) {
    return toBuilder().shares(value).build();
  }

  public GeneratorSpec withSystemAccounts(int value) {
    return toBuilder().systemAccounts(value).build();
  }

  public GeneratorSpec withThreads(int value) {
    return toBuilder().threads(value).build();
  }

  public GeneratorSpec withFractions(double deleted, double history, double shared) {
    return toBuilder()
        .deletedFraction(deleted)
        .historyFraction(history)
        .sharedFraction(shared)
        .build();
  }

  public GeneratorSpec withMetadataOnly(boolean value) {
    return toBuilder().metadataOnly(value).build();
  }

  public GeneratorSpec withFolders(int perAccount, int maxDepth) {
    return toBuilder().foldersPerAccount(perAccount).maxFolderDepth(maxDepth).build();
  }

  /** Builds specs from the defaults. */
  public static final class Builder {
    private long seed = 42;
    private int accounts = 8;
    private int domains = 3;
    private int itemsPerAccount = 500;
    private ItemLayout layout = ItemLayout.PACKED;
    private BlobCompression blobCompression = BlobCompression.NONE;
    private double deletedFraction = 0.05;
    private double historyFraction = 0.2;
    private double sharedFraction = 0.1;
    private double largeRate = 0.0005;
    private boolean shares = true;
    private int foldersPerAccount = 12;
    private int maxFolderDepth = 4;
    private int systemAccounts;
    private Instant createdAt = DEFAULT_CREATED_AT;
    private int threads = Runtime.getRuntime().availableProcessors();
    private boolean metadataOnly;

    public Builder() {}

    private Builder(GeneratorSpec s) {
      seed = s.seed;
      accounts = s.accounts;
      domains = s.domains;
      itemsPerAccount = s.itemsPerAccount;
      layout = s.layout;
      blobCompression = s.blobCompression;
      deletedFraction = s.deletedFraction;
      historyFraction = s.historyFraction;
      sharedFraction = s.sharedFraction;
      largeRate = s.largeRate;
      shares = s.shares;
      foldersPerAccount = s.foldersPerAccount;
      maxFolderDepth = s.maxFolderDepth;
      systemAccounts = s.systemAccounts;
      createdAt = s.createdAt;
      threads = s.threads;
      metadataOnly = s.metadataOnly;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public Builder accounts(int v) {
      accounts = v;
      return this;
    }

    public Builder domains(int v) {
      domains = v;
      return this;
    }

    public Builder itemsPerAccount(int v) {
      itemsPerAccount = v;
      return this;
    }

    public Builder layout(ItemLayout v) {
      layout = v;
      return this;
    }

    public Builder blobCompression(BlobCompression v) {
      blobCompression = v;
      return this;
    }

    public Builder deletedFraction(double v) {
      deletedFraction = v;
      return this;
    }

    public Builder historyFraction(double v) {
      historyFraction = v;
      return this;
    }

    public Builder sharedFraction(double v) {
      sharedFraction = v;
      return this;
    }

    public Builder largeRate(double v) {
      largeRate = v;
      return this;
    }

    public Builder shares(boolean v) {
      shares = v;
      return this;
    }

    public Builder foldersPerAccount(int v) {
      foldersPerAccount = v;
      return this;
    }

    public Builder maxFolderDepth(int v) {
      maxFolderDepth = v;
      return this;
    }

    public Builder systemAccounts(int v) {
      systemAccounts = v;
      return this;
    }

    public Builder createdAt(Instant v) {
      createdAt = v;
      return this;
    }

    public Builder threads(int v) {
      threads = v;
      return this;
    }

    public Builder metadataOnly(boolean v) {
      metadataOnly = v;
      return this;
    }

    public GeneratorSpec build() {
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
          threads,
          metadataOnly);
    }
  }
}
