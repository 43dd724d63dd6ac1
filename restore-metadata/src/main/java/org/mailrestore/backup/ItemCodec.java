package org.mailrestore.backup;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads and writes one item record: {@code {"id":..,"type":..,"revisions":[..]}} (see
 * docs/backup-format.md). Streaming and allocation-light; every way a record can be wrong becomes
 * an {@link ItemDecodeException} that says what and where.
 */
public final class ItemCodec {

  /** Longer string values are refused (they cannot be a name, subject or address). */
  public static final int MAX_STRING_LENGTH = 1 << 20;

  /** The largest colour number (the mailstore keeps it in a SMALLINT). */
  static final int MAX_COLOR = 32_767;

  static final JsonFactory JSON =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(MAX_STRING_LENGTH)
                  .maxNestingDepth(16)
                  .build())
          .rootValueSeparator((String) null)
          .build();

  private ItemCodec() {}

  /** Decodes a record held in a buffer (one line of a packed stream). */
  public static Item decode(byte[] buffer, int offset, int length, Set<ItemType> wanted)
      throws ItemDecodeException {
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), buffer, offset, length)) {
      return decode(parser, wanted);
    }
  }

  /** Decodes a record read from a stream (a file of the loose form). */
  public static Item decode(InputStream in, Set<ItemType> wanted) throws ItemDecodeException {
    try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), in)) {
      return decode(parser, wanted);
    }
  }

  /**
   * Decodes one item, or returns null as soon as its type is known not to be {@code wanted} (the
   * rest of the record is then neither read nor checked).
   */
  private static Item decode(JsonParser p, Set<ItemType> wanted) throws ItemDecodeException {
    Reader r = new Reader(p);
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw r.fail("an item record must be a JSON object");
      }
      List<Revision> revisions = null;
      String field;
      while ((field = p.nextName()) != null) {
        switch (field) {
          case "id" -> r.id = r.readInt("id");
          case "type" -> {
            String wire = r.readString("type");
            r.type = ItemType.fromWireName(wire);
            if (r.type == null) {
              throw r.fail(
                  "unknown item type \"" + TextRules.printable(String.valueOf(wire)) + "\"");
            }
            if (!wanted.contains(r.type)) {
              return null;
            }
          }
          case "revisions" -> revisions = r.readRevisions();
          default -> r.skipValue();
        }
      }
      if (p.nextToken() != null) {
        throw r.fail("unexpected data after the item record");
      }
      if (r.id <= 0) {
        throw r.fail(r.id == 0 ? "the item has no id" : "item id must be positive");
      }
      if (r.type == null) {
        throw r.fail("the item has no type");
      }
      if (!wanted.contains(r.type)) {
        return null;
      }
      if (revisions == null || revisions.isEmpty()) {
        throw r.fail("the item has no revisions");
      }
      Item item = new Item(r.id, r.type, closeIntervals(revisions, r));
      validate(item, r);
      return item;
    } catch (JacksonException e) {
      TokenStreamLocation at = e.getLocation();
      String where = at == null ? "" : " at column " + at.getColumnNr();
      throw new ItemDecodeException(
          "malformed JSON" + where + ": " + e.getOriginalMessage(), r.id, r.type, e);
    }
  }

  /** Fills in open {@code validTo}s from the next revision and checks the order. */
  private static List<Revision> closeIntervals(List<Revision> revisions, Reader r)
      throws ItemDecodeException {
    List<Revision> closed = new ArrayList<>(revisions.size());
    for (int i = 0; i < revisions.size(); i++) {
      Revision rev = revisions.get(i);
      if (i + 1 < revisions.size()) {
        long next = revisions.get(i + 1).validFrom();
        if (next < rev.validFrom()) {
          throw r.fail("revisions are not ordered by validFrom");
        }
        if (rev.validTo() == Revision.OPEN) {
          rev = rev.withValidTo(next);
        }
      }
      if (rev.validTo() <= rev.validFrom()) {
        throw r.fail("revision " + rev.rev() + " ends before it starts");
      }
      closed.add(rev);
    }
    return closed;
  }

  private static void validate(Item item, Reader r) throws ItemDecodeException {
    for (Revision rev : item.revisions()) {
      if (rev.deleted()) {
        continue;
      }
      String problem = checkRevision(item.type(), rev);
      if (problem != null) {
        throw r.fail("revision " + rev.rev() + ": " + problem);
      }
    }
  }

  private static String checkRevision(ItemType type, Revision rev) {
    if (rev.folderId() <= 0) {
      return "folder is missing or not a positive id";
    }
    if (type.isContainer()) {
      String bad = TextRules.checkName(rev.name());
      if (bad != null) {
        return bad;
      }
    }
    if (type.hasBlob() && rev.digest() == null) {
      return "a " + type.wireName() + " needs a blob digest";
    }
    if (rev.size() < 0) {
      return "size must not be negative";
    }
    if (rev.color() < -1 || rev.color() > MAX_COLOR) {
      return "color " + rev.color() + " is not a colour number (0 to " + MAX_COLOR + ")";
    }
    if (rev.view() != null && (rev.view().length() > 16 || !rev.view().matches("[a-z-]+"))) {
      return "view \"" + TextRules.printable(rev.view()) + "\" is not a view name";
    }
    if (!type.isContainer() && rev.name() != null) {
      String badName = TextRules.checkText("name", rev.name(), TextRules.MAX_NAME_LENGTH);
      if (badName != null) {
        return badName;
      }
    }
    if (type == ItemType.MOUNTPOINT
        && (rev.mount() == null
            || rev.mount().ownerAccountId() == null
            || rev.mount().ownerAccountId().isEmpty()
            || rev.mount().remoteFolderId() <= 0)) {
      return "a mountpoint needs mount.owner and a positive mount.remoteId";
    }
    try {
      Flags.toBits(rev.flags());
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    for (String tag : rev.tags()) {
      String bad = TextRules.checkName(tag);
      if (bad != null) {
        return "tag " + bad;
      }
    }
    String bad = TextRules.checkText("sender", rev.sender(), TextRules.MAX_SENDER_LENGTH);
    if (bad == null) {
      bad = TextRules.checkText("subject", rev.subject(), TextRules.MAX_SUBJECT_LENGTH);
    }
    if (bad == null && rev.uuid() != null) {
      bad = TextRules.checkText("uuid", rev.uuid(), 64);
    }
    for (Map.Entry<String, String> e : rev.attrs().entrySet()) {
      if (bad == null) {
        bad =
            TextRules.checkText("attribute " + e.getKey(), e.getValue(), TextRules.MAX_ATTR_LENGTH);
      }
    }
    if (bad == null && !rev.attrs().isEmpty()) {
      int bytes = Json.fromMap(rev.attrs()).getBytes(StandardCharsets.UTF_8).length;
      if (bytes > TextRules.MAX_ATTR_LENGTH) {
        bad =
            "the attributes take "
                + bytes
                + " bytes together (at most "
                + TextRules.MAX_ATTR_LENGTH
                + ")";
      }
    }
    return bad;
  }

  /** Writes one item record (no trailing separator). */
  public static void encode(JsonGenerator g, Item item) {
    g.writeStartObject();
    g.writeNumberProperty("id", item.id());
    g.writeStringProperty("type", item.type().wireName());
    g.writeName("revisions");
    g.writeStartArray();
    for (Revision rev : item.revisions()) {
      writeRevision(g, rev);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  private static void writeRevision(JsonGenerator g, Revision rev) {
    g.writeStartObject();
    g.writeNumberProperty("rev", rev.rev());
    g.writeNumberProperty("validFrom", rev.validFrom());
    if (rev.validTo() != Revision.OPEN) {
      g.writeNumberProperty("validTo", rev.validTo());
    }
    if (rev.deleted()) {
      g.writeBooleanProperty("deleted", true);
      g.writeEndObject();
      return;
    }
    writeIfPresent(g, "uuid", rev.uuid());
    g.writeNumberProperty("folder", rev.folderId());
    writeIfPresent(g, "name", rev.name());
    if (!rev.flags().isEmpty()) {
      g.writeStringProperty("flags", rev.flags());
    }
    if (!rev.tags().isEmpty()) {
      g.writeName("tags");
      g.writeStartArray();
      for (String tag : rev.tags()) {
        g.writeString(tag);
      }
      g.writeEndArray();
    }
    g.writeNumberProperty("date", rev.date());
    // A size without a blob is kept too (Zimbra gives folders the size of their contents).
    if (rev.digest() != null || rev.size() != 0) {
      g.writeNumberProperty("size", rev.size());
    }
    if (rev.digest() != null) {
      g.writeStringProperty("digest", rev.digest().hex());
    }
    writeIfPresent(g, "sender", rev.sender());
    writeIfPresent(g, "subject", rev.subject());
    if (rev.color() >= 0) {
      g.writeNumberProperty("color", rev.color());
    }
    writeIfPresent(g, "view", rev.view());
    if (rev.mount() != null) {
      g.writeName("mount");
      g.writeStartObject();
      g.writeStringProperty("owner", rev.mount().ownerAccountId());
      g.writeNumberProperty("remoteId", rev.mount().remoteFolderId());
      g.writeEndObject();
    }
    if (!rev.attrs().isEmpty()) {
      g.writeName("attrs");
      g.writeStartObject();
      for (Map.Entry<String, String> e : rev.attrs().entrySet()) {
        g.writeStringProperty(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeIfPresent(JsonGenerator g, String name, String value) {
    if (value != null) {
      g.writeStringProperty(name, value);
    }
  }

  /** Typed reads that fail with the field's name and what is known of the item so far. */
  private static final class Reader {
    private final JsonParser p;
    int id;
    ItemType type;

    Reader(JsonParser p) {
      this.p = p;
    }

    ItemDecodeException fail(String message) {
      return new ItemDecodeException(message, id, type);
    }

    void skipValue() {
      p.nextToken();
      p.skipChildren();
    }

    int readInt(String field) throws ItemDecodeException {
      JsonToken t = p.nextToken();
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw fail("field " + field + " must be an integer, found " + describe(t));
      }
      try {
        return p.getIntValue();
      } catch (JacksonException e) {
        throw fail("field " + field + " is out of range: " + p.getString());
      }
    }

    long readLong(String field) throws ItemDecodeException {
      JsonToken t = p.nextToken();
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw fail("field " + field + " must be an integer, found " + describe(t));
      }
      try {
        return p.getLongValue();
      } catch (JacksonException e) {
        throw fail("field " + field + " is out of range: " + p.getString());
      }
    }

    /** A string, or null for JSON null. */
    String readString(String field) throws ItemDecodeException {
      JsonToken t = p.nextToken();
      if (t == JsonToken.VALUE_NULL) {
        return null;
      }
      if (t != JsonToken.VALUE_STRING) {
        throw fail("field " + field + " must be a string, found " + describe(t));
      }
      return p.getString();
    }

    boolean readBoolean(String field) throws ItemDecodeException {
      JsonToken t = p.nextToken();
      if (t == JsonToken.VALUE_TRUE) {
        return true;
      }
      if (t == JsonToken.VALUE_FALSE) {
        return false;
      }
      throw fail("field " + field + " must be true or false, found " + describe(t));
    }

    List<Revision> readRevisions() throws ItemDecodeException {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw fail("field revisions must be an array, found " + describe(p.currentToken()));
      }
      List<Revision> revisions = new ArrayList<>(2);
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.START_OBJECT) {
          throw fail("each revision must be an object, found " + describe(t));
        }
        revisions.add(readRevision(revisions.size() + 1));
      }
      return revisions;
    }

    private Revision readRevision(int position) throws ItemDecodeException {
      Revision.Builder b = Revision.builder(position, Long.MIN_VALUE);
      boolean hasValidFrom = false;
      int rev = position;
      long size = 0;
      BlobDigest digest = null;
      String field;
      while ((field = p.nextName()) != null) {
        switch (field) {
          case "rev" -> b.rev(rev = readInt(field));
          case "validFrom" -> {
            b.validFrom(readLong(field));
            hasValidFrom = true;
          }
          case "validTo" -> b.validTo(readNullableLong(field, Revision.OPEN));
          case "deleted" -> {
            if (readBoolean(field)) {
              b.deleted();
            }
          }
          case "uuid" -> b.uuid(readString(field));
          case "folder" -> b.folder(readInt(field));
          case "name" -> b.name(readString(field));
          case "flags" -> b.flags(orEmpty(readString(field)));
          case "tags" -> b.tags(readStringArray(field));
          case "date" -> b.date(readLong(field));
          case "size" -> size = readLong(field);
          case "digest" -> digest = readDigest(field);
          case "sender" -> b.sender(readString(field));
          case "subject" -> b.subject(readString(field));
          case "color" -> b.color(readInt(field));
          case "view" -> b.view(readString(field));
          case "mount" -> b.mount(readMount());
          case "attrs" -> b.attrs(readStringMap(field));
          default -> skipValue();
        }
      }
      if (!hasValidFrom) {
        throw fail("revision " + rev + " has no validFrom");
      }
      return b.blob(size, digest).build();
    }

    private long readNullableLong(String field, long ifNull) throws ItemDecodeException {
      JsonToken t = p.nextToken();
      if (t == JsonToken.VALUE_NULL) {
        return ifNull;
      }
      if (t != JsonToken.VALUE_NUMBER_INT) {
        throw fail("field " + field + " must be an integer or null, found " + describe(t));
      }
      return p.getLongValue();
    }

    private BlobDigest readDigest(String field) throws ItemDecodeException {
      String hex = readString(field);
      if (hex == null) {
        return null;
      }
      if (!BlobDigest.isValid(hex)) {
        throw fail(
            "field digest must be 64 lower-case hex digits, found \""
                + TextRules.printable(hex)
                + "\"");
      }
      return new BlobDigest(hex);
    }

    private Revision.MountTarget readMount() throws ItemDecodeException {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw fail("field mount must be an object");
      }
      String owner = null;
      int remoteId = 0;
      String field;
      while ((field = p.nextName()) != null) {
        switch (field) {
          case "owner" -> owner = readString("mount.owner");
          case "remoteId" -> remoteId = readInt("mount.remoteId");
          default -> skipValue();
        }
      }
      return new Revision.MountTarget(owner, remoteId);
    }

    private List<String> readStringArray(String field) throws ItemDecodeException {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw fail("field " + field + " must be an array of strings");
      }
      List<String> values = new ArrayList<>(4);
      JsonToken t;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.VALUE_STRING) {
          throw fail("field " + field + " must be an array of strings, found " + describe(t));
        }
        values.add(p.getString());
      }
      return values;
    }

    private Map<String, String> readStringMap(String field) throws ItemDecodeException {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw fail("field " + field + " must be an object of strings");
      }
      Map<String, String> values = new LinkedHashMap<>();
      String key;
      while ((key = p.nextName()) != null) {
        String value = readString(field + "." + key);
        if (value != null) {
          values.put(key, value);
        }
      }
      return values;
    }

    private static String orEmpty(String s) {
      return s == null ? "" : s;
    }

    private static String describe(JsonToken t) {
      if (t == null) {
        return "end of input";
      }
      return switch (t) {
        case VALUE_STRING -> "a string";
        case VALUE_NUMBER_INT -> "an integer";
        case VALUE_NUMBER_FLOAT -> "a decimal number";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean";
        case VALUE_NULL -> "null";
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        default -> t.name();
      };
    }
  }
}
