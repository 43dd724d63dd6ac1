package org.mailrestore.mail;

import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The kinds of mailbox items, with their wire names in the backup and Zimbra's type numbers in the
 * mailstore.
 */
public enum ItemType {
  FOLDER("folder", 1, true, false),
  SEARCH_FOLDER("search", 2, true, false),
  TAG("tag", 3, true, false),
  MESSAGE("message", 5, false, true),
  CONTACT("contact", 6, false, false),
  DOCUMENT("document", 8, false, true),
  APPOINTMENT("appointment", 11, false, true),
  MOUNTPOINT("mountpoint", 13, true, false),
  TASK("task", 15, false, true);

  private static final Map<String, ItemType> BY_WIRE_NAME = new HashMap<>();
  private static final Map<Integer, ItemType> BY_CODE = new HashMap<>();

  static {
    for (ItemType type : values()) {
      BY_WIRE_NAME.put(type.wireName, type);
      BY_CODE.put(type.code, type);
    }
  }

  private static final Set<ItemType> CONTAINERS =
      Collections.unmodifiableSet(EnumSet.of(FOLDER, SEARCH_FOLDER, TAG, MOUNTPOINT));
  private static final Set<ItemType> CONTENTS =
      Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.copyOf(CONTAINERS)));

  /** The types of {@link #isContainer()}: read and restored before the content. */
  public static Set<ItemType> containers() {
    return CONTAINERS;
  }

  /** Every other type: messages, contacts, documents, appointments, tasks. */
  public static Set<ItemType> contents() {
    return CONTENTS;
  }

  private final String wireName;
  private final int code;
  private final boolean container;
  private final boolean hasBlob;

  ItemType(String wireName, int code, boolean container, boolean hasBlob) {
    this.wireName = wireName;
    this.code = code;
    this.container = container;
    this.hasBlob = hasBlob;
  }

  public String wireName() {
    return wireName;
  }

  /** Zimbra's {@code MailItem.Type} number, as stored in {@code mail_item.type}. */
  public int code() {
    return code;
  }

  /**
   * True for the items restored before content: folders, search folders, mountpoints and tags. They
   * are few per account and are held in memory to build the folder graph.
   */
  public boolean isContainer() {
    return container;
  }

  /** True when the item's body lives in a blob (a digest is required). */
  public boolean hasBlob() {
    return hasBlob;
  }

  /** True for items that other items can live in. */
  public boolean isFolderLike() {
    return this == FOLDER || this == SEARCH_FOLDER || this == MOUNTPOINT;
  }

  /** The type with this wire name, or null. */
  public static ItemType fromWireName(String name) {
    return BY_WIRE_NAME.get(name);
  }

  public static ItemType fromCode(int code) {
    ItemType type = BY_CODE.get(code);
    if (type == null) {
      throw new IllegalArgumentException("unknown item type code " + code);
    }
    return type;
  }
}
