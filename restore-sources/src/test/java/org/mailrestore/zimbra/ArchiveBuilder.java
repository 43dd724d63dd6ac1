package org.mailrestore.zimbra;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Json;

/**
 * Builds Zimbra account archives by hand for tests: entries as Zimbra writes them (a {@code .meta}
 * then the content), or any entry at all, for the cases Zimbra never writes.
 */
public final class ArchiveBuilder {

  /** One tar entry. */
  public record Entry(String name, byte[] content, int type, int mode, long mtime) {}

  private final List<Entry> entries = new ArrayList<>();

  /** Any entry. */
  public ArchiveBuilder entry(String name, byte[] content, int type, int mode) {
    entries.add(new Entry(name, content, type, mode, 1_600_000_000L));
    return this;
  }

  public ArchiveBuilder entry(String name, byte[] content) {
    return entry(name, content, 0, TarWriter.MODE_READ);
  }

  /**
   * A contact in /Contacts with these fields and a picture, as Zimbra writes one: the metadata's
   * {@code att} names the picture's field ({@code image}), part and type, and the content entry is
   * a MIME message whose second part is the picture, in base64.
   */
  public ArchiveBuilder contactWithPicture(
      int id, String entryName, Map<String, String> fields, byte[] picture) {
    Map<String, Object> json = item(id, 6, "/Contacts");
    json.put(
        "metadata",
        bencode(
            Map.of(
                "fld",
                fields,
                "att",
                List.of(
                    Map.of(
                        "field", "image",
                        "part", "2",
                        "ctype", "image/png",
                        "name", "photo.png",
                        "size", (long) picture.length)))));
    String content =
        "Content-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n"
            + "Content-Type: text/plain\r\n\r\ncontact\r\n--zz\r\n"
            + "Content-Type: image/png; name=photo.png\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n"
            + java.util.Base64.getMimeEncoder().encodeToString(picture)
            + "\r\n--zz--\r\n";
    meta(entryName + ".meta", json);
    return entry(entryName, content.getBytes(StandardCharsets.US_ASCII), 6, TarWriter.MODE_READ);
  }

  /** A {@code .meta} entry with this JSON. */
  public ArchiveBuilder meta(String name, Map<String, Object> json) {
    int type = json.get("type") instanceof Number n ? n.intValue() : 0;
    return entry(name, Json.MAPPER.writeValueAsBytes(json), type, TarWriter.MODE_READ);
  }

  /** The JSON of an item as Zimbra writes it. */
  public static Map<String, Object> item(int id, int type, String path) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("type", type);
    m.put("parent_id", -1);
    m.put("folder_id", 1);
    m.put("index_id", 0);
    m.put("imap_id", id);
    m.put("date", 1_600_000_000);
    m.put("size", 0);
    m.put("volume_id", 0);
    m.put("unread", 0);
    m.put("flags", 0);
    m.put("mod_metadata", 1);
    m.put("change_date", 1_600_000_000);
    m.put("mod_content", 1);
    m.put("Path", path);
    m.put("Ver", 10);
    return m;
  }

  public static String bencode(Map<String, Object> metadata) {
    return Bencode.encode(new TreeMap<>(metadata));
  }

  /** A folder with its metadata (colour, view, ACL...). */
  public ArchiveBuilder folder(int id, String path, Map<String, Object> metadata) {
    Map<String, Object> json = item(id, 1, path);
    json.put("name", path.substring(path.lastIndexOf('/') + 1));
    json.put("metadata", bencode(metadata));
    return meta(entryName(id, path), json);
  }

  public ArchiveBuilder folder(int id, String path) {
    return folder(id, path, Map.of("v", 10L));
  }

  /** A message: its {@code .meta} then its content, as Zimbra writes them. */
  public ArchiveBuilder message(
      int id, String folder, byte[] content, String flagString, String tags) {
    return message(id, folder, content, BlobDigest.ofContent(content), flagString, tags);
  }

  /** A message whose {@code .meta} declares this digest, whatever its content is. */
  public ArchiveBuilder message(
      int id, String folder, byte[] content, BlobDigest declared, String flagString, String tags) {
    Map<String, Object> json = item(id, 5, folder);
    json.put("size", content.length);
    json.put("blob_digest", MetaFields.zimbraDigest(declared));
    json.put("FlagStr", flagString);
    json.put("unread", flagString.contains("u") ? 1 : 0);
    if (tags != null) {
      json.put("TagNames", tags);
    }
    json.put("subject", "message " + id);
    String name = entryFolder(folder) + String.format("%010d-message %d.eml", id, id);
    meta(name + ".meta", json);
    return entry(
        name, content, 5, flagString.contains("u") ? TarWriter.MODE_UNREAD : TarWriter.MODE_READ);
  }

  private static String entryName(int id, String path) {
    int slash = path.lastIndexOf('/');
    String parent = slash <= 0 ? "" : path.substring(1, slash) + "/";
    return parent + String.format("%010d-%s.meta", id, path.substring(slash + 1));
  }

  private static String entryFolder(String folder) {
    String f = folder.startsWith("/") ? folder.substring(1) : folder;
    return f.isEmpty() ? "" : f + "/";
  }

  /** The tar stream. */
  public byte[] tar() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TarWriter tar = new TarWriter(out)) {
      for (Entry e : entries) {
        tar.putEntry(e.name(), e.content().length, e.mtime(), e.mode(), "", e.type());
        tar.write(e.content());
        tar.closeEntry();
      }
      tar.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The archive: the tar stream gzipped. */
  public byte[] tgz() {
    return gzip(tar());
  }

  public static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  public Path write(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, tgz());
    return file;
  }

  public static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  public static byte[] mail(String subject, String body) {
    return ("From: a@example.org\r\nSubject: " + subject + "\r\n\r\n" + body + "\r\n")
        .getBytes(StandardCharsets.UTF_8);
  }
}
