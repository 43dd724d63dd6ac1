package org.mailrestore.zimbra;

import java.nio.charset.StandardCharsets;
import org.mailrestore.mail.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code .meta} entry of a Zimbra archive: Zimbra's {@code ItemData}, one JSON object per item
 * with the item's {@code mail_item} row, its path and its tags.
 *
 * @param date seconds since the epoch
 * @param flags Zimbra's flag bit mask (without the unread bit, which is {@code unread})
 * @param flagString one letter per flag, unread ({@code u}) included; null in very old archives
 * @param path the folder path ({@code /Inbox/x}); for folders their own path, for documents the
 *     document's own path
 * @param tagNames tag names joined by {@code :}, with {@code \} and {@code :} escaped
 * @param tagString the legacy tag field: {@code :a:b} or tag ids {@code 64,65}
 * @param legacyTags the oldest form: a bit mask of tag ids 64 and up; null when absent
 * @param metadata the item's bencoded Zimbra metadata, or null
 * @param version the metadata format version ({@code Ver}), 10 or lower
 */
record ZimbraMeta(
    int id,
    String uuid,
    int type,
    int parentId,
    int folderId,
    int imapId,
    long date,
    long size,
    String blobDigest,
    int unread,
    int flags,
    String subject,
    String name,
    String metadata,
    int modMetadata,
    long changeDate,
    int modContent,
    String sender,
    String extra,
    String flagString,
    String path,
    String tagString,
    String tagNames,
    Long legacyTags,
    int version) {

  /** The newest metadata version Zimbra writes ({@code Metadata.LEGACY_METADATA_VERSION}). */
  static final int VERSION = 10;

  /** A {@code .meta} entry that cannot be read, with a reason that quotes none of its content. */
  static final class MetaException extends Exception {
    MetaException(String message) {
      super(message);
    }
  }

  static ZimbraMeta parse(byte[] json) throws MetaException {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(json);
    } catch (JacksonException e) {
      TokenStreamLocation at = e.getLocation();
      throw new MetaException(
          "the .meta entry is not valid JSON"
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    }
    if (node == null || !node.isObject()) {
      throw new MetaException("the .meta entry is not a JSON object");
    }
    int version = (int) number(node, "Ver", true);
    if (version > VERSION) {
      throw new MetaException(
          "metadata version "
              + version
              + " is newer than the "
              + VERSION
              + " this reader knows; export with a Zimbra that writes version "
              + VERSION);
    }
    return new ZimbraMeta(
        (int) number(node, "id", true),
        text(node, "uuid"),
        (int) number(node, "type", true),
        (int) number(node, "parent_id", false),
        (int) number(node, "folder_id", false),
        (int) number(node, "imap_id", false),
        number(node, "date", false),
        number(node, "size", false),
        text(node, "blob_digest"),
        (int) number(node, "unread", false),
        (int) number(node, "flags", false),
        text(node, "subject"),
        text(node, "name"),
        text(node, "metadata"),
        (int) number(node, "mod_metadata", false),
        number(node, "change_date", false),
        (int) number(node, "mod_content", false),
        text(node, "sender"),
        text(node, "ExtraStr"),
        node.has("FlagStr") ? node.get("FlagStr").asString("") : null,
        text(node, "Path"),
        text(node, "TagStr"),
        text(node, "TagNames"),
        node.has("tags") && node.get("tags").isNumber() ? node.get("tags").asLong() : null,
        version);
  }

  /**
   * Zimbra's JSON for this record: the keys in {@code ItemData}'s order, absent values left out.
   */
  byte[] toJson() {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("id", id);
    putText(o, "uuid", uuid);
    o.put("type", type);
    o.put("parent_id", parentId);
    o.put("folder_id", folderId);
    o.put("index_id", 0);
    o.put("imap_id", imapId);
    o.put("date", date);
    o.put("size", size);
    o.put("volume_id", 0);
    putText(o, "blob_digest", blobDigest);
    o.put("unread", unread);
    o.put("flags", flags);
    putText(o, "subject", subject);
    putText(o, "name", name);
    putText(o, "metadata", metadata);
    o.put("mod_metadata", modMetadata);
    o.put("change_date", changeDate);
    o.put("mod_content", modContent);
    putText(o, "sender", sender);
    putText(o, "ExtraStr", extra);
    putText(o, "FlagStr", flagString);
    o.put("Path", path == null ? "" : path);
    putText(o, "TagStr", tagString);
    putText(o, "TagNames", tagNames);
    o.put("Ver", version);
    return Json.MAPPER.writeValueAsString(o).getBytes(StandardCharsets.UTF_8);
  }

  private static void putText(ObjectNode o, String key, String value) {
    if (value != null) {
      o.put(key, value);
    }
  }

  private static String text(JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return null;
    }
    String s = v.isString() ? v.asString() : v.toString();
    return s.isEmpty() ? null : s;
  }

  /** A number, also when written as text (Zimbra's JSON reader accepts both). */
  private static long number(JsonNode node, String key, boolean required) throws MetaException {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      if (required) {
        throw new MetaException("the .meta entry has no \"" + key + "\"");
      }
      return 0;
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.asLong();
    }
    if (v.isString()) {
      try {
        return Long.parseLong(v.asString().strip());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new MetaException("the .meta entry's \"" + key + "\" is not a whole number");
  }
}
