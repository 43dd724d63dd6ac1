package org.mailrestore.mailstore;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A mailbox's tags by name (compared case-insensitively, as Zimbra does). An item may carry a tag
 * its backup never defined: the tag is then created, once, in its own small transaction.
 */
final class TagRegistry {

  private final MailboxStore store;
  private final int mailboxId;
  private final IdAllocator ids;
  private final Map<String, Integer> byName = new HashMap<>();

  TagRegistry(MailboxStore store, int mailboxId, IdAllocator ids) throws SQLException {
    this.store = store;
    this.mailboxId = mailboxId;
    this.ids = ids;
    store.tags(mailboxId).forEach((name, id) -> byName.putIfAbsent(key(name), id));
  }

  static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  Integer find(String name) {
    return byName.get(key(name));
  }

  void put(String name, int id) {
    byName.putIfAbsent(key(name), id);
  }

  /** The tag's id, creating the tag when the mailbox has none of that name. */
  synchronized int idFor(String name) throws SQLException {
    Integer id = byName.get(key(name));
    if (id == null) {
      id = store.ensureTag(mailboxId, name, null, ids.next());
      byName.put(key(name), id);
    }
    return id;
  }
}
