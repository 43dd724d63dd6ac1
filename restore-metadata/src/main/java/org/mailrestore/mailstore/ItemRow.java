package org.mailrestore.mailstore;

import org.mailrestore.blob.BlobDigest;

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
    String metadata) {}
