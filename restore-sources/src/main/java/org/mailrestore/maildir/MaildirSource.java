package org.mailrestore.maildir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceProblem;

/**
 * A tree of mailboxes read as a source: each directory under the root is a user, restored as the
 * account {@code <directory>@<domain>}. An account's folders come from its directories alone; its
 * messages are read as the item stream passes them (hashed for their digest, their headers parsed),
 * and read again from their files when their blobs are copied. The account references name the tree
 * by its absolute path, so restoring the same tree again (from the same path) skips what is
 * restored.
 */
public final class MaildirSource implements MailSource {

  private static final String ACCOUNT_LOCATION = "account";

  private final Path root;
  private final String domain;
  private final MaildirLayout layout;
  private final String serverId;
  private final Map<String, Path> users = new TreeMap<>();
  private final List<String> leftOut = new ArrayList<>();
  private final Map<String, MaildirAccount> accounts = new ConcurrentHashMap<>();
  private final MaildirBlobSource blobs = new MaildirBlobSource();
  private final BlobSource readBlobs;

  /**
   * @param root the directory holding one directory per user
   * @param domain the domain every account is created in
   * @throws IOException when the root cannot be listed, is one user's Maildir, or holds no user
   */
  public MaildirSource(Path root, String domain, MaildirLayout layout) throws IOException {
    this(root, domain, layout, UnaryOperator.identity());
  }

  /**
   * @param decorate wraps the messages' blob source (metrics, bounds), as other sources' are
   */
  public MaildirSource(
      Path root, String domain, MaildirLayout layout, UnaryOperator<BlobSource> decorate)
      throws IOException {
    this(root, domain, null, layout, decorate);
  }

  /**
   * One user's mailbox (a Maildir, such as {@code ~alice/Maildir}, or a tree of folders) restored
   * as the account {@code address}.
   */
  public static MaildirSource oneUser(
      Path dir, String address, MaildirLayout layout, UnaryOperator<BlobSource> decorate)
      throws IOException {
    String lower = address.toLowerCase(Locale.ROOT);
    int at = lower.indexOf('@');
    if (!TextRules.isAddress(lower) || !MaildirNames.isLocalPart(lower.substring(0, at))) {
      throw new IllegalArgumentException(
          "\"" + address + "\" is not an address (such as alice@example.org)");
    }
    return new MaildirSource(dir, lower.substring(at + 1), lower, layout, decorate);
  }

  private MaildirSource(
      Path root,
      String domain,
      String onlyAddress,
      MaildirLayout layout,
      UnaryOperator<BlobSource> decorate)
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
    String identity = this.root.toString();
    if (onlyAddress != null) {
      users.put(onlyAddress.substring(0, onlyAddress.indexOf('@')), this.root);
      identity += "\n" + onlyAddress;
    } else {
      listUsers();
    }
    this.serverId =
        "maildir-"
            + BlobDigest.ofContent(identity.getBytes(StandardCharsets.UTF_8))
                .hex()
                .substring(0, 16);
  }

  private void listUsers() throws IOException {
    Path maildir = this.root.resolve("Maildir");
    if (Files.isDirectory(maildir.resolve("cur")) && Files.isDirectory(maildir.resolve("new"))) {
      // Its Maildir would be taken for a user of that name, and any other directory for another.
      throw new IOException(
          this.root
              + " is one user's home (it holds Maildir/): name its account"
              + " (--maildir-account alice@"
              + this.domain
              + ", options.account), or give the directory that holds one directory per user");
    }
    if (Files.isDirectory(this.root.resolve("cur"))
        && Files.isDirectory(this.root.resolve("new"))) {
      // Its cur/, new/ and tmp/ would be taken for users, and its folders left out.
      throw new IOException(
          this.root
              + " is one user's Maildir (it has cur/ and new/): name its account"
              + " (--maildir-account alice@"
              + this.domain
              + ", options.account), or give the directory that holds one directory per user");
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(this.root)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (Files.isSymbolicLink(entry)) {
          leftOut.add(name + ": a symbolic link; links are not followed");
          continue;
        }
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          continue; // files next to the users (a manifest, checksums) are not mail
        }
        String id = name.toLowerCase(Locale.ROOT);
        if (!MaildirNames.isLocalPart(id) || name.startsWith(".")) {
          leftOut.add(
              name + ": cannot be an address's local part (letters, digits and ._+=- only)");
        } else if (users.putIfAbsent(id, entry) != null) {
          leftOut.add(name + ": another user directory has the same name in lower case");
        }
      }
    }
    if (users.isEmpty()) {
      throw new IOException(
          "no user directories in "
              + this.root
              + " (one directory per user, each a Maildir or a tree of folders)"
              + (leftOut.isEmpty() ? "" : "; left out: " + String.join("; ", leftOut)));
    }
  }

  /** User directories that are not restored, with the reason. */
  public List<String> leftOut() {
    return List.copyOf(leftOut);
  }

  @Override
  public String describe() {
    return root.toString();
  }

  @Override
  public String accountRef(String accountId) {
    return serverId + "/" + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return List.of(new Parsed.Ok<>(Domain.active(domain), domain));
  }

  @Override
  public List<Parsed<ClassOfService>> classesOfService() {
    return List.of();
  }

  @Override
  public List<Parsed<DistributionList>> distributionLists() {
    return List.of();
  }

  @Override
  public List<String> accountIds() {
    return List.copyOf(users.keySet());
  }

  @Override
  public Parsed<Account> account(String accountId) {
    String location = accountId + "/";
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
    return new Parsed.Ok<>(
        new Account(
            accountId,
            accountId + "@" + domain,
            domain,
            null,
            "active",
            false,
            List.of(),
            attributes),
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

  private MaildirAccount plan(String accountId) {
    return accounts.computeIfAbsent(
        accountId,
        id -> {
          try {
            return new MaildirAccount(id, layout.mailbox(users.get(id)), layout);
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
