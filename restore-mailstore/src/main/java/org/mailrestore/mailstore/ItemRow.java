package org.mailrestore.mailstore;

import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Revision;

/**
 * One {@code mail_item} row.
 *
 * @param type Zimbra's type number
 * @param color null when the item has none
 * @param digest null for items without a blob
 * @param volumeId the volume holding the blob, null without one
 * @param metadata type-specific fields as JSON, or null
 */
public record ItemRow(
    int id,
    int type,
    int folderId,
    String uuid,
    long date,
    long size,
    int flags,
    String name,
    String sender,
    String subject,
    Integer color,
    String view,
    BlobDigest digest,
    Integer volumeId,
    String metadata) {

  /**
   * The row of a restored item: its new id, the folder (in the target) it goes to, the name it gets
   * (folders may be renamed), and the backup state it restores.
   *
   * @param volumeId the volume of its blob, null when it has none
   */
  public static ItemRow of(
      int id, ItemType type, int folderId, String name, Revision state, Integer volumeId) {
    return new ItemRow(
        id,
        type.code(),
        folderId,
        state.uuid(),
        state.date(),
        state.size(),
        Flags.toBits(state.flags()),
        name,
        state.sender(),
        state.subject(),
        state.color() < 0 ? null : state.color(),
        state.view(),
        state.digest(),
        volumeId,
        Json.fromMap(state.attrs()));
  }
}
