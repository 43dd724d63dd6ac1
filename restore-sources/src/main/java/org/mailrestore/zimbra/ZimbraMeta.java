package org.mailrestore.zimbra;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.mailrestore.mail.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
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

  /**
   * Reads the object's fields as they stream, without a tree: an archive's two passes parse every
   * item's {@code .meta}, and the tree was a fifth of each pass (2026-12-06). A string or a whole
   * number is kept as it is; any other value as its node, read as the tree reader would.
   */
  static ZimbraMeta parse(byte[] json) throws MetaException {
    Map<String, Object> f = new HashMap<>(64); // Zimbra writes about 25 fields: no resize
    try (JsonParser p = Json.MAPPER.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MetaException("the .meta entry is not a JSON object");
      }
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        if (value == JsonToken.VALUE_STRING) {
          f.put(key, p.getString());
        } else if (value == JsonToken.VALUE_NUMBER_INT
            && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
          f.put(key, p.getLongValue());
        } else {
          f.put(key, (JsonNode) p.readValueAsTree());
        }
      }
      if (p.nextToken() != null) {
        throw new StreamReadException(p, "content after the object");
      }
    } catch (JacksonException e) {
      TokenStreamLocation at = e.getLocation();
      throw new MetaException(
          "the .meta entry is not valid JSON"
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    }
    int version = (int) number(f, "Ver", true);
    if (version > VERSION) {
      throw new MetaException(
          "metadata version "
              + version
              + " is newer than the "
              + VERSION
              + " this reader knows; export with a Zimbra that writes version "
              + VERSION);
    }
    Object flagString = f.get("FlagStr");
    Object tags = f.get("tags");
    return new ZimbraMeta(
        (int) number(f, "id", true),
        text(f, "uuid"),
        (int) number(f, "type", true),
        (int) number(f, "parent_id", false),
        (int) number(f, "folder_id", false),
        (int) number(f, "imap_id", false),
        number(f, "date", false),
        number(f, "size", false),
        text(f, "blob_digest"),
        (int) number(f, "unread", false),
        (int) number(f, "flags", false),
        text(f, "subject"),
        text(f, "name"),
        text(f, "metadata"),
        (int) number(f, "mod_metadata", false),
        number(f, "change_date", false),
        (int) number(f, "mod_content", false),
        text(f, "sender"),
        text(f, "ExtraStr"),
        switch (flagString) {
          case null -> null;
          case String string -> string;
          case Long n -> n.toString();
          case JsonNode node -> node.asString("");
          default -> throw new IllegalStateException();
        },
        text(f, "Path"),
        text(f, "TagStr"),
        text(f, "TagNames"),
        switch (tags) {
          case Long n -> n;
          case JsonNode node when node.isNumber() -> node.asLong();
          case null, default -> null;
        },
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

  private static String text(Map<String, Object> fields, String key) {
    String s =
        switch (fields.get(key)) {
          case null -> null;
          case String string -> string;
          case Long n -> n.toString();
          case JsonNode v when v.isNull() -> null;
          case JsonNode v -> v.isString() ? v.asString() : v.toString();
          default -> throw new IllegalStateException();
        };
    return s == null || s.isEmpty() ? null : s;
  }

  /** A number, also when written as text (Zimbra's JSON reader accepts both). */
  private static long number(Map<String, Object> fields, String key, boolean required)
      throws MetaException {
    Object v = fields.get(key);
    if (v == null || (v instanceof JsonNode node && node.isNull())) {
      if (required) {
        throw new MetaException("the .meta entry has no \"" + key + "\"");
      }
      return 0;
    }
    if (v instanceof Long n) {
      return n;
    }
    if (v instanceof String string) {
      try {
        return Long.parseLong(string.strip());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new MetaException("the .meta entry's \"" + key + "\" is not a whole number");
  }
}
