package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceFormatException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a backup in format v1 from any {@link BackupStorage}. Opening checks the manifest and
 * refuses other formats and unknown major versions; everything else is read on demand and streamed,
 * so an account's items are never all in memory.
 */
public final class BackupReader implements MailSource {

  private final BackupStorage storage;
  private final BackupManifest manifest;

  private BackupReader(BackupStorage storage, BackupManifest manifest) {
    this.storage = storage;
    this.manifest = manifest;
  }

  /**
   * Opens a backup.
   *
   * @throws SourceFormatException when there is no readable manifest, or it names another format or
   *     a major version this reader does not know
   */
  public static BackupReader open(BackupStorage storage) {
    return new BackupReader(storage, readManifest(storage));
  }

  private static BackupManifest readManifest(BackupStorage storage) {
    String where = storage.describe() + "/" + BackupLayout.MANIFEST;
    JsonNode root;
    try (InputStream in = storage.open(BackupLayout.MANIFEST)) {
      root = Json.MAPPER.readTree(in);
    } catch (NoSuchFileException e) {
      throw new SourceFormatException("not a mailrestore backup: " + where + " does not exist", e);
    } catch (JacksonException e) {
      throw new SourceFormatException("cannot read " + where + ": " + Json.describe(e), e);
    } catch (IOException e) {
      throw new SourceFormatException("cannot read " + where + ": " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new SourceFormatException(where + " must hold a JSON object");
    }
    String format = text(root, "format");
    if (!BackupManifest.FORMAT_NAME.equals(format)) {
      throw new SourceFormatException(
          where
              + " names format \""
              + format
              + "\"; this reader reads \""
              + BackupManifest.FORMAT_NAME
              + "\"");
    }
    FormatVersion version;
    try {
      version = FormatVersion.parse(text(root, "version"));
    } catch (IllegalArgumentException e) {
      throw new SourceFormatException(where + ": " + e.getMessage(), e);
    }
    if (!version.isReadable()) {
      throw new SourceFormatException(
          "backup "
              + storage.describe()
              + " uses format version "
              + version
              + ", but this mailrestore reads only version "
              + FormatVersion.CURRENT.major()
              + ".x; use a mailrestore release that supports version "
              + version.major());
    }
    Instant createdAt;
    try {
      String created = text(root, "createdAt");
      createdAt = created == null ? null : Instant.parse(created);
    } catch (DateTimeParseException e) {
      throw new SourceFormatException(where + ": createdAt is not an ISO-8601 instant", e);
    }
    return new BackupManifest(
        format, version, text(root, "serverId"), createdAt, text(root, "description"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asString();
  }

  public BackupManifest manifest() {
    return manifest;
  }

  public BackupStorage storage() {
    return storage;
  }

  /** The backup's blobs, read by digest. */
  @Override
  public BlobSource blobs() {
    return storage.blobSource();
  }

  @Override
  public String describe() {
    return storage.describe();
  }

  @Override
  public String identity() throws IOException {
    return storage.identity();
  }

  /**
   * A name for one of the backup's accounts that is unique across backups: {@code <server
   * id>/<account id>}. Item ids are unique only within it.
   */
  @Override
  public String accountRef(String accountId) {
    return (manifest.serverId() == null ? "" : manifest.serverId()) + "/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return readAll(BackupLayout.DOMAINS, Domain.class);
  }

  @Override
  public List<Parsed<ClassOfService>> classesOfService() {
    return readAll(BackupLayout.COS, ClassOfService.class);
  }

  @Override
  public List<Parsed<DistributionList>> distributionLists() {
    return readAll(BackupLayout.LISTS, DistributionList.class);
  }

  /** The ids of the accounts in the backup, sorted. Names that cannot be ids are left out. */
  @Override
  public List<String> accountIds() {
    List<String> ids = new ArrayList<>();
    for (String name : list(BackupLayout.ACCOUNTS)) {
      if (BackupLayout.isSafeSegment(name)) {
        ids.add(name);
      }
    }
    return ids;
  }

  @Override
  public Parsed<Account> account(String accountId) {
    String path = BackupLayout.accountFile(accountId);
    Parsed<Account> parsed = read(path, Account.class);
    if (parsed instanceof Parsed.Ok<Account>(Account account, String location)) {
      String problem = checkAccount(accountId, account);
      if (problem != null) {
        return new Parsed.Failed<>(location, problem);
      }
    }
    return parsed;
  }

  private static String checkAccount(String accountId, Account account) {
    if (!accountId.equals(account.id())) {
      return "the file's id \""
          + account.id()
          + "\" differs from its directory \""
          + accountId
          + "\"";
    }
    if (account.name() == null || account.name().indexOf('@') <= 0) {
      return "the account has no valid address in \"name\"";
    }
    String domain = account.name().substring(account.name().indexOf('@') + 1);
    if (account.domain() != null && !account.domain().equalsIgnoreCase(domain)) {
      return "the account's domain \""
          + account.domain()
          + "\" differs from its address "
          + account.name();
    }
    return null;
  }

  /** Grants on the account's folders; an empty list when the account shares nothing. */
  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    String path = BackupLayout.sharesFile(accountId);
    try {
      if (!storage.exists(path)) {
        return new Parsed.Ok<>(List.of(), path);
      }
    } catch (IOException e) {
      return new Parsed.Failed<>(path, "cannot read: " + e.getMessage());
    }
    return switch (read(path, Shares.class)) {
      case Parsed.Ok<Shares>(Shares shares, String location) ->
          new Parsed.Ok<>(shares.grants(), location);
      case Parsed.Failed<Shares>(String location, String reason) ->
          new Parsed.Failed<>(location, reason);
    };
  }

  /**
   * The layout the account's items are stored in.
   *
   * @throws IOException when the account has both forms, or neither: every mailbox holds its system
   *     folders, so an account without items is a backup unfinished or damaged, or files removed
   *     while it is read, never an empty mailbox
   */
  public ItemLayout itemLayout(String accountId) throws IOException {
    boolean packed = storage.exists(BackupLayout.packedItems(accountId));
    String looseDir = BackupLayout.looseItemsDir(accountId);
    boolean loose = !storage.list(looseDir).isEmpty();
    if (packed && loose) {
      throw new IOException(
          "account "
              + accountId
              + " has both "
              + BackupLayout.PACKED_ITEMS
              + " and an "
              + BackupLayout.LOOSE_ITEMS
              + "/ directory; a backup must use one form per account");
    }
    if (packed) {
      return ItemLayout.PACKED;
    }
    if (loose || storage.exists(looseDir)) {
      return ItemLayout.LOOSE; // an empty items/ directory: a writer's account with no items
    }
    throw new NoSuchFileException(
        storage.describe() + "/" + BackupLayout.accountDir(accountId),
        null,
        "the account has no items (neither "
            + BackupLayout.PACKED_ITEMS
            + " nor "
            + BackupLayout.LOOSE_ITEMS
            + "/): the backup is unfinished or damaged, or its files were removed while it was"
            + " read");
  }

  /**
   * Streams the item records of an account whose type is in {@code types}. Undecodable records are
   * always returned, whatever their type, so the caller can report them.
   *
   * @throws IOException when the account's item store cannot be opened at all
   */
  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    return switch (itemLayout(accountId)) {
      case PACKED -> {
        String path = BackupLayout.packedItems(accountId);
        yield new PackedItemStream(storage.open(path), path, types);
      }
      case LOOSE -> new LooseItemStream(storage, BackupLayout.looseItemsDir(accountId), types);
    };
  }

  private List<String> list(String directory) {
    try {
      return storage.list(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + storage.describe() + "/" + directory, e);
    }
  }

  private <T> List<Parsed<T>> readAll(String directory, Class<T> type) {
    List<Parsed<T>> result = new ArrayList<>();
    for (String name : list(directory)) {
      if (name.endsWith(BackupLayout.JSON)) {
        result.add(read(directory + "/" + name, type));
      }
    }
    return result;
  }

  private <T> Parsed<T> read(String path, Class<T> type) {
    try (InputStream in = storage.open(path)) {
      T value = Json.MAPPER.readValue(in, type);
      if (value == null) {
        return new Parsed.Failed<>(path, "the file is empty");
      }
      return new Parsed.Ok<>(value, path);
    } catch (NoSuchFileException e) {
      return new Parsed.Failed<>(path, "the file is missing");
    } catch (JacksonException e) {
      return new Parsed.Failed<>(path, "malformed JSON: " + Json.describe(e));
    } catch (IOException e) {
      return new Parsed.Failed<>(path, "cannot read: " + e.getMessage());
    }
  }

  @Override
  public void close() throws IOException {
    storage.close();
  }
}
