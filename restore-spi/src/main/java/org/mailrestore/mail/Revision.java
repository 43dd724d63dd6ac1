package org.mailrestore.mail;

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
    return builder(rev, at).deleted().build();
  }

  /** A revision valid from {@code validFrom} until further notice; set the rest as needed. */
  public static Builder builder(int rev, long validFrom) {
    return new Builder(rev, validFrom);
  }

  /** A copy to change. */
  public Builder toBuilder() {
    Builder b = new Builder(rev, validFrom);
    b.validTo = validTo;
    b.deleted = deleted;
    b.uuid = uuid;
    b.folderId = folderId;
    b.name = name;
    b.flags = flags;
    b.tags = tags;
    b.date = date;
    b.size = size;
    b.digest = digest;
    b.sender = sender;
    b.subject = subject;
    b.color = color;
    b.view = view;
    b.mount = mount;
    b.attrs = attrs;
    return b;
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

  /** Builds revisions field by field; unset fields take the record's defaults. */
  public static final class Builder {
    private int rev;
    private long validFrom;
    private long validTo = OPEN;
    private boolean deleted;
    private String uuid;
    private int folderId;
    private String name;
    private String flags = "";
    private List<String> tags = List.of();
    private long date;
    private long size;
    private BlobDigest digest;
    private String sender;
    private String subject;
    private int color = -1;
    private String view;
    private MountTarget mount;
    private Map<String, String> attrs = Map.of();

    private Builder(int rev, long validFrom) {
      this.rev = rev;
      this.validFrom = validFrom;
    }

    public Builder rev(int v) {
      rev = v;
      return this;
    }

    public Builder validFrom(long v) {
      validFrom = v;
      return this;
    }

    public Builder validTo(long v) {
      validTo = v;
      return this;
    }

    public Builder deleted() {
      deleted = true;
      return this;
    }

    public Builder uuid(String v) {
      uuid = v;
      return this;
    }

    public Builder folder(int v) {
      folderId = v;
      return this;
    }

    public Builder name(String v) {
      name = v;
      return this;
    }

    public Builder flags(String v) {
      flags = v;
      return this;
    }

    public Builder tags(List<String> v) {
      tags = v;
      return this;
    }

    public Builder date(long v) {
      date = v;
      return this;
    }

    /** The blob: its size and digest. */
    public Builder blob(long sizeInBytes, BlobDigest sha256) {
      size = sizeInBytes;
      digest = sha256;
      return this;
    }

    public Builder sender(String v) {
      sender = v;
      return this;
    }

    public Builder subject(String v) {
      subject = v;
      return this;
    }

    public Builder color(int v) {
      color = v;
      return this;
    }

    public Builder view(String v) {
      view = v;
      return this;
    }

    public Builder mount(MountTarget v) {
      mount = v;
      return this;
    }

    public Builder attrs(Map<String, String> v) {
      attrs = v;
      return this;
    }

    public Revision build() {
      if (deleted) {
        return new Revision(
            rev, validFrom, validTo, true, null, 0, null, "", List.of(), 0, 0, null, null, null, -1,
            null, null, null);
      }
      return new Revision(
          rev, validFrom, validTo, false, uuid, folderId, name, flags, tags, date, size, digest,
          sender, subject, color, view, mount, attrs);
    }
  }
}
