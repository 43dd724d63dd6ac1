package org.mailrestore.imap;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The mailbox ids (RFC 8474 {@code MAILBOXID}) of the folders a restore has created or listed on
 * one server, over every account. Two folders must never share one. Debian's Cyrus 3.6 was seen
 * giving folders created by different connections at nearly the same moment the same id (56 of 730
 * in one test run); Cyrus keeps a folder's special use by that id, so another user's Sent showed up
 * as {@code \Sent} on a folder of this user, and the restore took it for this user's Sent. A
 * special use on a folder whose id is shared is therefore not believed.
 */
final class MailboxIds {

  private final Map<String, Set<String>> folders = new ConcurrentHashMap<>();
  private final AtomicInteger clashes = new AtomicInteger();

  /**
   * Notes that {@code folder} (a user's folder, named for people) has {@code id}; returns another
   * folder that has it too the first time this folder is seen sharing it, else null.
   */
  String note(String id, String folder) {
    Set<String> holders = folders.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet());
    if (!holders.add(folder) || holders.size() == 1) {
      return null;
    }
    clashes.incrementAndGet();
    return holders.stream().filter(h -> !h.equals(folder)).findFirst().orElse(null);
  }

  /** Whether two folders were seen with this id (null: the server gives no ids). */
  boolean isShared(String id) {
    return id != null && folders.getOrDefault(id, Set.of()).size() > 1;
  }

  /** How many times a folder was found sharing an id, so far. */
  int clashes() {
    return clashes.get();
  }

  /** The id in a response code's arguments, {@code (F2212ea87...)}, without the parentheses. */
  static String parse(String arguments) {
    String id = arguments.strip();
    if (id.startsWith("(") && id.endsWith(")")) {
      id = id.substring(1, id.length() - 1).strip();
    }
    return id.isEmpty() ? null : id;
  }
}
