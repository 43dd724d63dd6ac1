package org.mailrestore.restore;

/** The three phases of a restore, in order. */
public enum Phase {
  /** Domains, classes of service, lists, accounts and aliases, created empty. */
  PROVISIONING,
  /** Per account: folders, tags, then items in clusters. */
  DATA,
  /** Grants and mountpoints, remapped to the restored ids. */
  SHARES
}
