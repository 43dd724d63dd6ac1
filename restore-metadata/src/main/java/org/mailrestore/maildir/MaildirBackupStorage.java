package org.mailrestore.maildir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupManifest;
import org.mailrestore.backup.BackupStorage;
import org.mailrestore.backup.BackupWriter;
import org.mailrestore.backup.ItemSink;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Json;
import org.mailrestore.source.SourceProblem;

/**
 * A tree of mailboxes read as a backup: each directory under the root is a user, restored as the
 * account {@code <directory>@<domain>}. It presents the files of backup format v1 (manifest,
 * domain, accounts, packed items) built from the tree, so the restore reads it like any backup; the
 * messages themselves are the blobs, read in place.
 *
 * <p>An account's items are built the first time they are read: every message is read once, hashed,
 * and its headers parsed; the records go to a temporary file read by both passes of the restore,
 * deleted on close. The server id names the tree by its absolute path, so restoring the same tree
 * again (from the same path) skips what is restored.
 */
public final class MaildirBackupStorage implements BackupStorage {

  private final Path root;
  private final String domain;
  private final MaildirLayout layout;
  private final Path work;
  private final Map<String, Path> users = new TreeMap<>();
  private final List<String> leftOut = new ArrayList<>();
  private final Map<String, MaildirAccount> accounts = new ConcurrentHashMap<>();
  private final Map<String, Path> itemFiles = new ConcurrentHashMap<>();
  private final MaildirBlobSource blobs = new MaildirBlobSource();
  private final BlobSource readBlobs;
  private final BackupManifest manifest;

  /**
   * @param root the directory holding one directory per user
   * @param domain the domain every account is created in
   * @throws IOException when the root cannot be listed
   */
  public MaildirBackupStorage(Path root, String domain, MaildirLayout layout) throws IOException {
    this(root, domain, layout, UnaryOperator.identity());
  }

  /**
   * @param decorate wraps the messages' blob source (metrics, bounds), as other backups' are
   */
  public MaildirBackupStorage(
      Path root, String domain, MaildirLayout layout, UnaryOperator<BlobSource> decorate)
      throws IOException {
    this.readBlobs = decorate.apply(blobs);
    this.root = root.toAbsolutePath().normalize();
    if (!Files.isDirectory(this.root)) {
      throw new NoSuchFileException(this.root + " is not a directory");
    }
    this.domain = domain.toLowerCase(Locale.ROOT);
    if (!MaildirNames.isDomainName(this.domain)) {
      throw new IllegalArgumentException(
          "\"" + domain + "\" is not a domain name (such as example.org)");
    }
    this.layout = layout;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.root)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          continue; // files next to the users (a manifest, checksums) are not mail
        }
        String id = name.toLowerCase(Locale.ROOT);
        if (!BackupLayout.isSafeSegment(id) || name.startsWith(".")) {
          leftOut.add(
              name + ": cannot be an address's local part (letters, digits and ._+=- only)");
        } else if (users.putIfAbsent(id, entry) != null) {
          leftOut.add(name + ": another user directory has the same name in lower case");
        }
      }
    }
    this.manifest =
        BackupManifest.current(
            "maildir-"
                + BlobDigest.ofContent(this.root.toString().getBytes(StandardCharsets.UTF_8))
                    .hex()
                    .substring(0, 16),
            Files.getLastModifiedTime(this.root).toInstant(),
            "Maildir tree " + this.root + " (" + layout.wireName() + " layout)");
    this.work = Files.createTempDirectory("mailrestore-maildir");
  }

  /** User directories that are not restored, with the reason. */
  public List<String> leftOut() {
    return List.copyOf(leftOut);
  }

  @Override
  public InputStream open(String path) throws IOException {
    if (path.equals(BackupLayout.MANIFEST)) {
      return json(BackupWriter.manifestJson(manifest));
    }
    if (path.equals(BackupLayout.domainFile(domain))) {
      return json(new Domain(domain, "active", Map.of()));
    }
    String[] parts = path.split("/");
    if (parts.length == 3
        && parts[0].equals(BackupLayout.ACCOUNTS)
        && users.containsKey(parts[1])) {
      if (parts[2].equals(BackupLayout.ACCOUNT_FILE)) {
        return json(account(parts[1]));
      }
      if (parts[2].equals(BackupLayout.PACKED_ITEMS)) {
        return Files.newInputStream(items(parts[1]));
      }
    }
    throw new NoSuchFileException(describe() + "/" + path);
  }

  @Override
  public boolean exists(String path) {
    if (path.equals(BackupLayout.MANIFEST) || path.equals(BackupLayout.domainFile(domain))) {
      return true;
    }
    String[] parts = path.split("/");
    return parts.length == 3
        && parts[0].equals(BackupLayout.ACCOUNTS)
        && users.containsKey(parts[1])
        && (parts[2].equals(BackupLayout.ACCOUNT_FILE)
            || parts[2].equals(BackupLayout.PACKED_ITEMS));
  }

  @Override
  public List<String> list(String directory) {
    return switch (directory) {
      case BackupLayout.ACCOUNTS -> List.copyOf(users.keySet());
      case BackupLayout.DOMAINS -> List.of(domain + BackupLayout.JSON);
      default -> List.of();
    };
  }

  @Override
  public BlobSource blobSource() {
    return readBlobs;
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    MaildirAccount account = accounts.get(accountId);
    return account == null ? List.of() : List.copyOf(account.problems());
  }

  private MaildirAccount plan(String accountId) {
    return accounts.computeIfAbsent(
        accountId,
        id -> {
          try {
            return new MaildirAccount(id, users.get(id), layout);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private Account account(String accountId) throws IOException {
    MaildirAccount plan;
    try {
      plan = plan(accountId);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    Map<String, String> attributes = new HashMap<>();
    attributes.put(MaildirNames.LAYOUT_ATTR, plan.layout().wireName());
    plan.systemDirs()
        .forEach((id, dir) -> {
          if (dir != null) {
            attributes.put(MaildirNames.SYSTEM_DIR_ATTR_PREFIX + id, MaildirNames.encode(dir));
          }
        });
    return new Account(
        accountId, accountId + "@" + domain, domain, null, "active", false, List.of(), attributes);
  }

  /** The account's packed items, built on first use. */
  private Path items(String accountId) throws IOException {
    Path existing = itemFiles.get(accountId);
    if (existing != null) {
      return existing;
    }
    synchronized (plan(accountId)) {
      existing = itemFiles.get(accountId);
      if (existing != null) {
        return existing;
      }
      Path file = work.resolve(accountId + ".jsonl.zst");
      try (ItemSink sink = BackupWriter.packedItems(file)) {
        plan(accountId).writeItems(sink, blobs);
      }
      itemFiles.put(accountId, file);
      return file;
    }
  }

  private static InputStream json(Object value) {
    return new ByteArrayInputStream(Json.MAPPER.writeValueAsBytes(value));
  }

  @Override
  public void close() throws IOException {
    try (Stream<Path> files = Files.walk(work)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
