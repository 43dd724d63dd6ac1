package org.mailrestore.maildir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.LocalIdentity;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceProblem;

/**
 * A tree of mailboxes read as a source: each directory under the root is a user, restored as the
 * account {@code <directory>@<domain>}; or each is a domain holding its users' directories, as
 * Postfix and Dovecot keep virtual mailboxes ({@code /var/vmail/<domain>/<user>}), each restored as
 * {@code <user>@<domain>}. An account's folders come from its directories alone; its messages are
 * read as the item stream passes them (hashed for their digest, their headers parsed), and read
 * again from their files when their blobs are copied. The account references name the tree by its
 * absolute path, so restoring the same tree again (from the same path) skips what is restored.
 */
public final class MaildirSource implements MailSource {

  private static final String ACCOUNT_LOCATION = "account";

  private final Path root;
  private final String domain; // null when each directory of the root is a domain
  private final MaildirLayout layout;
  private final String serverId;
  private final Map<String, Path> users = new TreeMap<>(); // account id to its directory
  // A directory that cannot be restored, by its path under the root, with the reason: each is
  // reported as an account that failed, so that no mailbox is passed over in silence.
  private final Map<String, String> leftOut = new TreeMap<>();
  private final Map<String, MaildirAccount> accounts = new ConcurrentHashMap<>();
  private final MaildirReading reading;
  private final PathFence fence;
  private final MaildirBlobSource blobs;
  private final BlobSource readBlobs;

  /**
   * @param root the directory holding one directory per user
   * @param domain the domain every account is created in
   * @throws IOException when the root cannot be listed, is one user's Maildir, or holds no user
   */
  public MaildirSource(Path root, String domain, MaildirLayout layout) throws IOException {
    this(root, domain, layout, MaildirReading.PLAIN);
  }

  /** As above, read as {@code reading} says (decorated, fenced, bounded). */
  public MaildirSource(Path root, String domain, MaildirLayout layout, MaildirReading reading)
      throws IOException {
    this(root, requireDomain(domain), null, layout, reading);
  }

  /**
   * A tree whose root holds one directory per domain, each holding one directory per user ({@code
   * /var/vmail/<domain>/<user>}): each user is restored as {@code <user>@<domain>}.
   */
  public static MaildirSource ofDomains(Path root, MaildirLayout layout, MaildirReading reading)
      throws IOException {
    return new MaildirSource(root, null, null, layout, reading);
  }

  private static String requireDomain(String domain) {
    if (domain == null) {
      throw new IllegalArgumentException(
          "a tree of users needs their domain (such as example.org)");
    }
    return domain;
  }

  /**
   * One user's mailbox (a Maildir, such as {@code ~alice/Maildir}, or a tree of folders) restored
   * as the account {@code address}.
   */
  public static MaildirSource oneUser(
      Path dir, String address, MaildirLayout layout, MaildirReading reading) throws IOException {
    String lower = address.toLowerCase(Locale.ROOT);
    int at = lower.indexOf('@');
    if (!TextRules.isAddress(lower) || !MaildirNames.isLocalPart(lower.substring(0, at))) {
      throw new IllegalArgumentException(
          "\"" + address + "\" is not an address (such as alice@example.org)");
    }
    return new MaildirSource(dir, lower.substring(at + 1), lower, layout, reading);
  }

  private MaildirSource(
      Path root, String domain, String onlyAddress, MaildirLayout layout, MaildirReading reading)
      throws IOException {
    this.reading = reading;
    this.fence = reading.fence();
    this.blobs = new MaildirBlobSource(fence);
    this.readBlobs = reading.decorate().apply(blobs);
    this.root = root.toAbsolutePath().normalize();
    if (!Files.isDirectory(this.root)) {
      throw new NoSuchFileException(this.root + " is not a directory");
    }
    this.domain = domain == null ? null : domain.toLowerCase(Locale.ROOT);
    if (domain != null && !MaildirNames.isDomainName(this.domain)) {
      throw new IllegalArgumentException(
          "\"" + domain + "\" is not a domain name (such as example.org)");
    }
    this.layout = layout;
    String identity = this.root.toString();
    if (onlyAddress != null) {
      users.put(onlyAddress.substring(0, onlyAddress.indexOf('@')), this.root);
      identity += "\n" + onlyAddress;
    } else {
      refuseOneUser();
      if (this.domain != null) {
        listUsers(this.root, null, "");
      } else {
        listDomains();
        identity += "\n*";
      }
    }
    if (users.isEmpty()) {
      throw new IOException(
          "no user directories in "
              + this.root
              + (this.domain == null
                  ? " (one directory per domain, each holding one directory per user)"
                  : " (one directory per user, each a Maildir or a tree of folders)")
              + (leftOut.isEmpty() ? "" : "; left out: " + String.join("; ", leftOut())));
    }
    this.serverId =
        "maildir-"
            + BlobDigest.ofContent(identity.getBytes(StandardCharsets.UTF_8))
                .hex()
                .substring(0, 16);
  }

  /** Refuses a root that is one user's home or Maildir, naming the option that restores it. */
  private void refuseOneUser() throws IOException {
    String hint =
        " name its account (--maildir-account alice@"
            + (domain == null ? "example.org" : domain)
            + ", options.account), or give the directory that holds one directory per user";
    Path maildir = this.root.resolve("Maildir");
    if (Files.isDirectory(maildir.resolve("cur")) && Files.isDirectory(maildir.resolve("new"))) {
      // Its Maildir would be taken for a user of that name, and any other directory for another.
      throw new IOException(this.root + " is one user's home (it holds Maildir/):" + hint);
    }
    if (Files.isDirectory(this.root.resolve("cur"))
        && Files.isDirectory(this.root.resolve("new"))) {
      // Its cur/, new/ and tmp/ would be taken for users, and its folders left out.
      throw new IOException(this.root + " is one user's Maildir (it has cur/ and new/):" + hint);
    }
  }

  /** Each directory of the root is a domain, holding its users' directories. */
  private void listDomains() throws IOException {
    for (Path entry : directories(this.root, "")) {
      String name = entry.getFileName().toString();
      String lower = name.toLowerCase(Locale.ROOT);
      if (!MaildirNames.isDomainName(lower)) {
        leftOut.put(name, "not a domain name; each directory of the root is a domain");
      } else {
        listUsers(entry, lower, name + "/");
      }
    }
  }

  /**
   * The user directories of {@code dir}: account ids are their names in lower case, or, in a tree
   * of domains, their addresses in {@code dirDomain} ({@code where} prefixes the names left out).
   */
  private void listUsers(Path dir, String dirDomain, String where) throws IOException {
    for (Path entry : directories(dir, where)) {
      String name = entry.getFileName().toString();
      String local = name.toLowerCase(Locale.ROOT);
      String id = dirDomain == null ? local : local + "@" + dirDomain;
      if (!MaildirNames.isLocalPart(local)) {
        leftOut.put(
            where + name,
            "cannot be an address's local part (letters, digits and ._+=- only): rename the"
                + " directory, or restore it alone with --maildir-account");
      } else if (users.putIfAbsent(id, entry) != null) {
        leftOut.put(
            where + name,
            "another user directory has the same name in lower case: restore it alone with"
                + " --maildir-account");
      }
    }
  }

  /**
   * The directories of {@code dir} that may hold mail: symbolic links are left out (and listed);
   * hidden directories ({@code .snapshot}) and {@code lost+found} are no one's.
   */
  private List<Path> directories(Path dir, String where) throws IOException {
    List<Path> result = new ArrayList<>();
    for (Path entryName : fence.names(dir)) {
      Path entry = dir.resolve(entryName);
      String name = entryName.toString();
      if (name.startsWith(".") || name.equals("lost+found")) {
        continue;
      }
      BasicFileAttributes attrs = MaildirPlan.attributes(fence, entry);
      if (attrs != null && attrs.isSymbolicLink()) {
        leftOut.put(where + name, "a symbolic link; links are not followed");
      } else if (attrs != null && attrs.isDirectory()) {
        result.add(entry); // files next to the users (a manifest, checksums) are not mail
      }
    }
    return result;
  }

  /**
   * Directories that are not restored, with the reason ({@code <path>: <reason>}); each is also an
   * account that fails with it.
   */
  public List<String> leftOut() {
    return leftOut.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public String identity() throws IOException {
    return LocalIdentity.of(root);
  }

  @Override
  public String accountRef(String accountId) {
    return serverId + "/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return users.keySet().stream()
        .map(this::domainOf)
        .distinct()
        .map(d -> (Parsed<Domain>) new Parsed.Ok<>(Domain.active(d), d))
        .toList();
  }

  /** An account's domain: the tree's, or in a tree of domains its id's (an address). */
  private String domainOf(String accountId) {
    return domain != null ? domain : accountId.substring(accountId.indexOf('@') + 1);
  }

  @Override
  public List<String> accountIds() {
    List<String> ids = new ArrayList<>(users.keySet());
    ids.addAll(leftOut.keySet());
    return List.copyOf(ids);
  }

  @Override
  public Parsed<Account> account(String accountId) {
    String location = accountId + "/";
    String reason = leftOut.get(accountId);
    if (reason != null) {
      return new Parsed.Failed<>(location, reason);
    }
    if (!users.containsKey(accountId)) {
      return new Parsed.Failed<>(location, "no such user directory in " + root);
    }
    MaildirAccount plan;
    try {
      plan = plan(accountId);
    } catch (UncheckedIOException e) {
      return new Parsed.Failed<>(location, "cannot read: " + e.getCause().getMessage());
    }
    Map<String, String> attributes = new HashMap<>();
    attributes.put(MaildirNames.LAYOUT_ATTR, plan.layout().wireName());
    plan.systemDirs()
        .forEach((id, dir) -> {
          if (dir != null) {
            attributes.put(MaildirNames.SYSTEM_DIR_ATTR_PREFIX + id, MaildirNames.encode(dir));
          }
        });
    String address = domain != null ? accountId + "@" + domain : accountId;
    return new Parsed.Ok<>(
        new Account(
            accountId, address, domainOf(accountId), null, "active", false, List.of(), attributes),
        location);
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), ACCOUNT_LOCATION);
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    if (!users.containsKey(accountId)) {
      throw new NoSuchFileException(root + "/" + accountId);
    }
    try {
      return plan(accountId).items(types, blobs);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public BlobSource blobs() {
    return readBlobs;
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    MaildirAccount account = accounts.get(accountId);
    return account == null ? List.of() : account.problems();
  }

  @Override
  public void doneWith(String accountId) {
    blobs.release(accountId);
  }

  @Override
  public void doneWithItems(String accountId, List<Item> items) {
    List<BlobDigest> digests = new ArrayList<>(items.size());
    for (Item item : items) {
      for (Revision r : item.revisions()) {
        if (r.digest() != null) {
          digests.add(r.digest());
        }
      }
    }
    blobs.settle(accountId, digests);
  }

  private MaildirAccount plan(String accountId) {
    return accounts.computeIfAbsent(
        accountId,
        id -> {
          try {
            return new MaildirAccount(id, layout.mailbox(users.get(id)), layout, reading);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  @Override
  public void close() {
    accounts.clear();
  }
}
