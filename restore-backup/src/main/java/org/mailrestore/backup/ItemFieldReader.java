package org.mailrestore.backup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/** Typed reads that fail with the field's name and what is known of the item so far. */
final class ItemFieldReader {
  private final JsonParser p;
  int id;
  ItemType type;

  ItemFieldReader(JsonParser p) {
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
      throw fail("field " + field + " is out of range");
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
      throw fail("field " + field + " is out of range");
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
    try {
      return new BlobDigest(hex); // validates, once
    } catch (IllegalArgumentException e) {
      throw fail(
          "field digest must be 64 lower-case hex digits, found \""
              + TextRules.printable(hex)
              + "\"");
    }
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
