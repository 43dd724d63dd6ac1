package org.mailrestore.backup;

import java.util.regex.Pattern;
import org.mailrestore.mail.TextRules;

/** The file names of backup format v1 (docs/backup-format.md), in one place. */
public final class BackupLayout {

  public static final String MANIFEST = "backup.json";
  public static final String DOMAINS = "domains";
  public static final String COS = "cos";
  public static final String LISTS = "lists";
  public static final String ACCOUNTS = "accounts";
  public static final String BLOBS = "blobs";
  public static final String ACCOUNT_FILE = "account.json";
  public static final String SHARES_FILE = "shares.json";
  public static final String PACKED_ITEMS = "items.jsonl.zst";
  public static final String LOOSE_ITEMS = "items";
  public static final String JSON = ".json";

  /** Number of shard directories of the loose form: items/00 .. items/99. */
  public static final int LOOSE_SHARDS = 100;

  // Ids and names that become path segments: no separators, no leading dot, no control chars.
  private static final Pattern SAFE_SEGMENT =
      Pattern.compile("[A-Za-z0-9_@+=-][A-Za-z0-9._@+=-]{0,254}");

  private BackupLayout() {}

  public static String accountDir(String accountId) {
    return ACCOUNTS + "/" + requireSafe(accountId, "account id");
  }

  public static String accountFile(String accountId) {
    return accountDir(accountId) + "/" + ACCOUNT_FILE;
  }

  public static String sharesFile(String accountId) {
    return accountDir(accountId) + "/" + SHARES_FILE;
  }

  public static String packedItems(String accountId) {
    return accountDir(accountId) + "/" + PACKED_ITEMS;
  }

  public static String looseItemsDir(String accountId) {
    return accountDir(accountId) + "/" + LOOSE_ITEMS;
  }

  public static String looseItemFile(String accountId, int itemId) {
    return looseItemsDir(accountId) + "/" + looseShard(itemId) + "/" + itemId + JSON;
  }

  public static String looseShard(int itemId) {
    return String.format("%02d", itemId % LOOSE_SHARDS);
  }

  public static String domainFile(String domain) {
    return DOMAINS + "/" + requireSafe(domain, "domain name") + JSON;
  }

  public static String cosFile(String name) {
    return COS + "/" + requireSafe(name, "class of service name") + JSON;
  }

  public static String listFile(String address) {
    return LISTS + "/" + requireSafe(address, "list address") + JSON;
  }

  public static boolean isSafeSegment(String s) {
    return s != null && SAFE_SEGMENT.matcher(s).matches();
  }

  public static String requireSafe(String s, String what) {
    if (!isSafeSegment(s)) {
      throw new IllegalArgumentException(
          what
              + " \""
              + (s == null ? "null" : TextRules.printable(s))
              + "\" cannot be used as a file name (letters, digits and ._@+=- only)");
    }
    return s;
  }
}
