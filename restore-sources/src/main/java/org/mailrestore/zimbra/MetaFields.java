package org.mailrestore.zimbra;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;

/**
 * The fields of a {@code .meta} as our model has them: flags, tags, dates, digests, colours and
 * views, and back. Zimbra's facts behind each are in docs/zimbra-archives.md.
 */
final class MetaFields {

  /** Zimbra's type numbers that are not ours. */
  static final int CONVERSATION = 4;

  static final int WIKI = 7;
  static final int NOTE = 9;
  static final int FLAG = 10;
  static final int VIRTUAL_CONVERSATION = 12;
  static final int CHAT = 16;
  static final int COMMENT = 17;
  static final int LINK = 18;
  static final int SMART_FOLDER = 19;

  /** The attribute that keeps an item's Zimbra metadata as it was, for what we do not model. */
  static final String RAW_METADATA = "zimbra.metadata";

  /** The attribute that keeps a colour given as RGB ({@code #rrggbb}). */
  static final String RGB = "rgb";

  /** The most raw metadata kept for one item. */
  static final int MAX_RAW_METADATA = 1 << 20;

  /** Zimbra's bit for a custom RGB colour in the {@code c} value. */
  private static final long RGB_FLAG = 0x01000000L;

  private MetaFields() {}

  /**
   * Our type for a Zimbra type number, or null when the item has none: a chat is a message, a wiki
   * page a document.
   */
  static ItemType type(int zimbraType) {
    return switch (zimbraType) {
      case CHAT -> ItemType.MESSAGE;
      case WIKI -> ItemType.DOCUMENT;
      case 1, 2, 3, 5, 6, 8, 11, 13, 15 -> ItemType.fromCode(zimbraType);
      default -> null;
    };
  }

  /** Types that are derived or internal in Zimbra: never restored, never reported. */
  static boolean isDerived(int zimbraType) {
    return zimbraType == CONVERSATION || zimbraType == VIRTUAL_CONVERSATION || zimbraType == FLAG;
  }

  /** A name for a Zimbra type number in messages. */
  static String typeName(int zimbraType) {
    return switch (zimbraType) {
      case NOTE -> "note";
      case COMMENT -> "comment";
      case LINK -> "link";
      case SMART_FOLDER -> "smart folder";
      default -> {
        ItemType t = type(zimbraType);
        yield t == null ? "type " + zimbraType : t.wireName();
      }
    };
  }

  /**
   * Our flag letters: {@code FlagStr} when the archive has it (letters we do not know are dropped),
   * else the bit mask. Unread is kept for messages only: on a folder, Zimbra's {@code u} means that
   * it holds unread messages.
   */
  static String flags(ZimbraMeta meta, ItemType type) {
    StringBuilder letters = new StringBuilder();
    if (meta.flagString() != null) {
      for (char c : meta.flagString().toCharArray()) {
        if (isKnown(c)) {
          letters.append(c);
        }
      }
    } else {
      letters.append(Flags.fromBits(meta.flags() & ~Flags.UNREAD));
      if (meta.unread() > 0 || (meta.flags() & Flags.UNREAD) != 0) {
        letters.append('u');
      }
    }
    String normalized = Flags.normalize(letters.toString());
    return type == ItemType.MESSAGE ? normalized : normalized.replace("u", "");
  }

  private static boolean isKnown(char c) {
    try {
      Flags.toBits(String.valueOf(c));
      return c != '.';
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * The item's tag names: {@code TagNames} (unescaped), else the legacy {@code TagStr} ({@code
   * :a:b}, or tag ids), else the oldest {@code tags} bit mask; ids are named through the archive's
   * tags.
   */
  static List<String> tags(ZimbraMeta meta, Map<Integer, String> tagNamesById) {
    if (meta.tagNames() != null) {
      return unescapeTags(meta.tagNames());
    }
    String legacy = meta.tagString();
    if (legacy != null) {
      if (Character.isDigit(legacy.charAt(0)) && legacy.indexOf(':') < 0) {
        List<String> names = new ArrayList<>();
        for (String id : legacy.split(",")) {
          try {
            String name = tagNamesById.get(Integer.parseInt(id.strip()));
            if (name != null) {
              names.add(name);
            }
          } catch (NumberFormatException e) {
            // not a tag id: nothing to name
          }
        }
        return names;
      }
      return unescapeTags(legacy);
    }
    if (meta.legacyTags() != null && meta.legacyTags() != 0) {
      List<String> names = new ArrayList<>();
      long mask = meta.legacyTags();
      for (int bit = 0; bit < 64; bit++) {
        if ((mask & (1L << bit)) != 0) {
          String name = tagNamesById.get(64 + bit);
          if (name != null) {
            names.add(name);
          }
        }
      }
      return names;
    }
    return List.of();
  }

  /**
   * Zimbra's {@code TagNames}: names joined by {@code :}, {@code \} escaping the next character.
   */
  static List<String> unescapeTags(String serialized) {
    List<String> tags = new ArrayList<>();
    StringBuilder tag = new StringBuilder();
    boolean escaped = false;
    for (int i = 0; i <= serialized.length(); i++) {
      char c = i == serialized.length() ? ':' : serialized.charAt(i);
      if (escaped) {
        tag.append(c);
        escaped = false;
      } else if (c == '\\' && i < serialized.length()) {
        escaped = true;
      } else if (c == ':') {
        if (!tag.isEmpty()) {
          tags.add(tag.toString());
          tag.setLength(0);
        }
      } else {
        tag.append(c);
      }
    }
    return tags;
  }

  /** {@code TagNames} for tag names. */
  static String escapeTags(List<String> tags) {
    StringBuilder sb = new StringBuilder();
    for (String t : tags) {
      if (!sb.isEmpty()) {
        sb.append(':');
      }
      sb.append(t.replace("\\", "\\\\").replace(":", "\\:"));
    }
    return sb.toString();
  }

  /** Epoch milliseconds of the {@code date} field (seconds; a value past year 5000 is millis). */
  static long dateMillis(long date) {
    return date > 100_000_000_000L ? date : date * 1000;
  }

  /** The SHA-256 a {@code blob_digest} declares, or null when it is another digest or none. */
  static BlobDigest sha256(String blobDigest) {
    byte[] raw = decodeDigest(blobDigest);
    return raw != null && raw.length == 32 ? BlobDigest.of(raw) : null;
  }

  /** The SHA-1 an old archive's {@code blob_digest} declares, or null. */
  static byte[] sha1(String blobDigest) {
    byte[] raw = decodeDigest(blobDigest);
    return raw != null && raw.length == 20 ? raw : null;
  }

  /** Zimbra's digest form: base64 with {@code ,} for {@code /} (and a URL-safe variant). */
  private static byte[] decodeDigest(String blobDigest) {
    if (blobDigest == null || blobDigest.isEmpty()) {
      return null;
    }
    String b64 = blobDigest.replace(',', '/').replace('-', '+').replace('_', '/');
    try {
      return Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Our digest in Zimbra's form. */
  static String zimbraDigest(BlobDigest digest) {
    return digest == null
        ? null
        : Base64.getEncoder().encodeToString(digest.toBytes()).replace('/', ',');
  }

  /**
   * The colour of the {@code c} metadata value: a palette index, or -1 with the RGB value in {@code
   * attrs} for a custom colour.
   */
  static int color(Map<String, Object> metadata, Map<String, String> attrs) {
    Object c = metadata.get("c");
    long value;
    if (c instanceof Long l) {
      value = l;
    } else if (c instanceof String s) {
      try {
        value = Long.parseLong(s);
      } catch (NumberFormatException e) {
        return -1;
      }
    } else {
      return -1;
    }
    if ((value & RGB_FLAG) != 0) {
      attrs.put(RGB, String.format("#%06x", value & 0xffffff));
      return -1;
    }
    return value >= 0 && value < 128 ? (int) value : -1;
  }

  /** The {@code c} value for a colour (index or {@code #rrggbb}), or null for none. */
  static Long colorValue(int color, Map<String, String> attrs) {
    String rgb = attrs.get(RGB);
    if (rgb != null && rgb.matches("#[0-9a-fA-F]{6}")) {
      return RGB_FLAG | Long.parseLong(rgb.substring(1), 16);
    }
    return color >= 0 ? Long.valueOf(color) : null;
  }

  /** Our view name for the {@code vt} metadata value (a type number), or null. */
  static String view(Map<String, Object> metadata) {
    Object vt = metadata.get("vt");
    long value;
    if (vt instanceof Long l) {
      value = l;
    } else if (vt instanceof String s) {
      try {
        value = Long.parseLong(s);
      } catch (NumberFormatException e) {
        return null;
      }
    } else {
      return null;
    }
    ItemType t = type((int) value);
    return t == null || t.isContainer() ? null : t.wireName();
  }

  /** The {@code vt} value for a view name, or null. */
  static Long viewValue(String view) {
    ItemType t = view == null ? null : ItemType.fromWireName(view);
    return t == null ? null : Long.valueOf(t.code());
  }

  /** Text values of a metadata map (contact fields), kept in order. */
  static Map<String, String> strings(Object map) {
    Map<String, String> out = new LinkedHashMap<>();
    if (map instanceof Map<?, ?> m) {
      m.forEach((k, v) -> {
        if (k != null && v != null && !(v instanceof Map) && !(v instanceof List)) {
          out.put(k.toString(), v.toString());
        }
      });
    }
    return out;
  }

  /** A metadata value as text, or null. */
  static String text(Map<String, Object> metadata, String key) {
    Object v = metadata.get(key);
    return v == null || v instanceof Map || v instanceof List ? null : v.toString();
  }

  /** A metadata value as a number, or {@code fallback}. */
  static long number(Map<String, Object> metadata, String key, long fallback) {
    Object v = metadata.get(key);
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof String s) {
      try {
        return Long.parseLong(s.strip());
      } catch (NumberFormatException e) {
        return fallback;
      }
    }
    return fallback;
  }
}
