package org.mailrestore.zimbra;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.TextRules;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceProblem;

/**
 * Zimbra account archives ({@code zmmailbox getRestURL "//?fmt=tgz"}) as a source: one archive per
 * account, the account being the archive's address. Each archive is read as a stream, gzip then tar
 * then entries, never unpacked: a first pass plans the folders, the second passes each item's
 * content to the restore as it goes. The account references name the address ({@code
 * zimbra-tgz/<address>}), so restoring an account's archive again skips what is restored, wherever
 * the file is.
 */
public final class ZimbraArchiveSource implements MailSource {

  private static final String REF_PREFIX = ZimbraTgzKind.NAME + "/";

  /** What tells the archives from others put in their place (see {@link #identity}). */
  @FunctionalInterface
  interface Identity {
    String now() throws IOException;
  }

  private final String describe;
  private final Identity identity;
  private final Map<String, AccountArchive> accounts = new TreeMap<>();

  /**
   * @param files the archive of each account, by address (lower case)
   */
  ZimbraArchiveSource(
      String describe,
      Map<String, ArchiveFile> files,
      ZimbraIds ids,
      long maxEntryBytes,
      Identity identity) {
    this.describe = describe;
    this.identity = identity;
    files.forEach(
        (address, file) -> accounts.put(address, new AccountArchive(file, ids, maxEntryBytes)));
  }

  @Override
  public String describe() {
    return describe;
  }

  @Override
  public String identity() throws IOException {
    return identity.now();
  }

  @Override
  public String accountRef(String accountId) {
    return REF_PREFIX + accountId;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    Set<String> domains = new TreeSet<>();
    accounts.keySet().forEach(a -> domains.add(a.substring(a.indexOf('@') + 1)));
    List<Parsed<Domain>> result = new ArrayList<>();
    domains.forEach(d -> result.add(new Parsed.Ok<>(Domain.active(d), d)));
    return result;
  }

  @Override
  public List<String> accountIds() {
    return List.copyOf(accounts.keySet());
  }

  @Override
  public Parsed<Account> account(String accountId) {
    AccountArchive archive = accounts.get(accountId);
    if (archive == null) {
      return new Parsed.Failed<>(accountId, "no archive of " + describe + " is this account's");
    }
    return new Parsed.Ok<>(Account.ofAddress(accountId), archive.file().name());
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    AccountArchive archive = accounts.get(accountId);
    if (archive == null) {
      return new Parsed.Ok<>(List.of(), accountId);
    }
    try {
      return new Parsed.Ok<>(archive.grants(), archive.file().name());
    } catch (IOException e) {
      return new Parsed.Failed<>(archive.file().name(), "cannot be read: " + e.getMessage());
    }
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    AccountArchive archive = accounts.get(accountId);
    if (archive == null) {
      throw new IOException("no archive of " + describe + " is account " + accountId + "'s");
    }
    return archive.items(types);
  }

  /** Every item's content passes with it; nothing is read by digest. */
  @Override
  public BlobSource blobs() {
    return MailSource.passingOnly(describe);
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    AccountArchive archive = accounts.get(accountId);
    return archive == null ? List.of() : archive.problems();
  }

  @Override
  public void close() {
    accounts.clear();
  }

  /** The address an archive's file name gives ({@code alice@example.org.tgz}), or null. */
  static String addressOf(String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    for (String ext : ZimbraTgzKind.EXTENSIONS) {
      if (lower.endsWith(ext)) {
        String address = lower.substring(0, lower.length() - ext.length());
        return isAddress(address) ? address : null;
      }
    }
    return null;
  }

  /** True for an address (see {@link TextRules#isAddress}). */
  static boolean isAddress(String s) {
    return TextRules.isAddress(s);
  }
}
