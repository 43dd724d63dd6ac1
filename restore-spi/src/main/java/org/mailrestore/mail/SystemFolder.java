package org.mailrestore.mail;

import java.util.HashMap;
import java.util.Map;

/**
 * The folders every Zimbra mailbox has, with Zimbra's fixed ids. Ids below {@link #FIRST_USER_ID}
 * are reserved: on restore they map onto the target mailbox's own system folders.
 */
public enum SystemFolder {
  ROOT(11, "ROOT", 11, null),
  USER_ROOT(1, "USER_ROOT", 11, null),
  INBOX(2, "Inbox", 1, "message"),
  TRASH(3, "Trash", 1, null),
  JUNK(4, "Junk", 1, "message"),
  SENT(5, "Sent", 1, "message"),
  DRAFTS(6, "Drafts", 1, "message"),
  CONTACTS(7, "Contacts", 1, "contact"),
  TAGS(8, "Tags", 11, null),
  CONVERSATIONS(9, "Conversations", 11, null),
  CALENDAR(10, "Calendar", 1, "appointment"),
  AUTO_CONTACTS(13, "Emailed Contacts", 1, "contact"),
  CHATS(14, "Chats", 1, "message"),
  TASKS(15, "Tasks", 1, "task"),
  BRIEFCASE(16, "Briefcase", 1, "document");

  /** Ids from here on belong to the user's own items. */
  public static final int FIRST_USER_ID = 256;

  private static final Map<Integer, SystemFolder> BY_ID = new HashMap<>();

  static {
    for (SystemFolder f : values()) {
      BY_ID.put(f.id, f);
    }
  }

  private final int id;
  private final String folderName;
  private final int parentId;
  private final String view;

  SystemFolder(int id, String folderName, int parentId, String view) {
    this.id = id;
    this.folderName = folderName;
    this.parentId = parentId;
    this.view = view;
  }

  public int id() {
    return id;
  }

  public String folderName() {
    return folderName;
  }

  public int parentId() {
    return parentId;
  }

  public String view() {
    return view;
  }

  /** True when the id is reserved for system items (below 256). */
  public static boolean isReserved(int id) {
    return id > 0 && id < FIRST_USER_ID;
  }

  /** The system folder with this id, or null. */
  public static SystemFolder byId(int id) {
    return BY_ID.get(id);
  }
}
