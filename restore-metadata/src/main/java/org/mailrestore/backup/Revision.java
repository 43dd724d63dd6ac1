package org.mailrestore.backup;

import java.util.List;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;

/**
 * One state of an item, valid from {@code validFrom} (inclusive) to {@code validTo} (exclusive).
 *
 * <p>A revision with {@code deleted} set is a tombstone: the item does not exist from {@code
 * validFrom} on, and the other fields are empty.
 *
 * @param validFrom epoch milliseconds
 * @param validTo epoch milliseconds, or {@link #OPEN} when this is still the current state
 * @param folderId the folder the item lives in (for folders: the parent folder)
 * @param flags Zimbra flag letters, see {@link Flags}
 * @param tags tag names
 * @param date the item's date (for messages, the date received), epoch milliseconds
 * @param size the size of the blob in bytes (0 for items without one)
 * @param digest the blob's SHA-256, null for items without a blob
 * @param color Zimbra's colour number for folders and tags, or -1
 * @param view the folder's default view (message, contact, appointment, task, document), or null
 * @param mount for mountpoints: the shared folder they point to; otherwise null
 * @param attrs further type-specific fields (contact fields, search query...), kept as they are
 */
public record Revision(
    int rev,
    long validFrom,
    long validTo,
    boolean deleted,
    String uuid,
    int folderId,
    String name,
    String flags,
    List<String> tags,
    long date,
    long size,
    BlobDigest digest,
    String sender,
    String subject,
    int color,
    String view,
    MountTarget mount,
    Map<String, String> attrs) {

  public static final long OPEN = Long.MAX_VALUE;

  public Revision {
    tags = tags == null ? List.of() : List.copyOf(tags);
    attrs = attrs == null ? Map.of() : Map.copyOf(attrs);
    flags = flags == null ? "" : flags;
  }

  /** A tombstone: the item was deleted at {@code at}. */
  public static Revision tombstone(int rev, long at) {
    return new Revision(
        rev, at, OPEN, true, null, 0, null, "", List.of(), 0, 0, null, null, null, -1, null, null,
        null);
  }

  /** Whether this revision describes the item at instant {@code t}. */
  public boolean isValidAt(long t) {
    return validFrom <= t && t < validTo;
  }

  public Revision withValidTo(long newValidTo) {
    return new Revision(
        rev,
        validFrom,
        newValidTo,
        deleted,
        uuid,
        folderId,
        name,
        flags,
        tags,
        date,
        size,
        digest,
        sender,
        subject,
        color,
        view,
        mount,
        attrs);
  }

  /**
   * Where a mountpoint points.
   *
   * @param ownerAccountId the sharing account's id in the backup
   * @param remoteFolderId the shared folder's id in the owner's backup
   */
  public record MountTarget(String ownerAccountId, int remoteFolderId) {}
}
