package org.mailrestore.backup;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    ItemFieldReader r = new ItemFieldReader(p);
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
      throw new ItemDecodeException("malformed JSON: " + Json.describe(e), r.id, r.type, e);
    }
  }

  /** Fills in open {@code validTo}s from the next revision and checks the order. */
  private static List<Revision> closeIntervals(List<Revision> revisions, ItemFieldReader r)
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

  private static void validate(Item item, ItemFieldReader r) throws ItemDecodeException {
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
}
