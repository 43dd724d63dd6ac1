package org.mailrestore.restore;

import java.util.Locale;

/** What to do with an account that already exists in the target. */
public enum ConflictPolicy {
  /** Leave the existing account alone; its items are counted as skipped. */
  SKIP,
  /** Add what the account is missing; keep what is there. Re-runs are idempotent. */
  MERGE,
  /** Empty the existing mailbox, then restore into it. */
  REPLACE,
  /** Restore into another account, named with a suffix ({@code alice-restored@...}). */
  NEW_ACCOUNT;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static ConflictPolicy parse(String text) {
    for (ConflictPolicy p : values()) {
      if (p.wireName().equalsIgnoreCase(text.trim()) || p.name().equalsIgnoreCase(text.trim())) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown conflict policy '" + text + "' (use skip, merge, replace or new-account)");
  }
}
