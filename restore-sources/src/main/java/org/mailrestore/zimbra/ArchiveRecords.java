package org.mailrestore.zimbra;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;
import org.mailrestore.zimbra.TarReader.BrokenArchiveException;
import org.mailrestore.zimbra.TarReader.Entry;
import org.mailrestore.zimbra.ZimbraMeta.MetaException;

/**
 * The records of a Zimbra archive, in order: each item's {@code .meta} with the content entry that
 * follows it (when the next entry has the same name without {@code .meta}), content entries with no
 * {@code .meta} before them, and what cannot be read. The content of the record just returned is
 * readable from {@link #content()} until the next call.
 */
final class ArchiveRecords implements AutoCloseable {

  /** No {@code .meta} Zimbra writes comes near this; a larger one is refused, not read. */
  static final long MAX_META_BYTES = 16L << 20;

  /** A record of the archive. */
  sealed interface Record {}

  /**
   * An item: its metadata and, when present, its content entry.
   *
   * @param metaEntry the {@code .meta} entry
   * @param content the content entry, or null when the next entry is not this item's
   */
  record ItemRecord(ZimbraMeta meta, Entry metaEntry, Entry content) implements Record {}

  /** A content entry with no {@code .meta} right before it. */
  record Orphan(Entry entry, boolean archiveHasMeta) implements Record {}

  /** An entry that cannot be used, and why. */
  record Bad(Entry entry, String reason) implements Record {}

  /**
   * The archive cannot be read past here.
   *
   * @param tarOffset where the tar stream stopped making sense
   * @param fileOffset how many bytes of the archive file had been read then
   */
  record Broken(String reason, long tarOffset, long fileOffset) implements Record {}

  private final TarReader tar;
  private final LongSupplier fileOffset;
  private Entry lookahead;
  private boolean anyMeta;
  private boolean done;

  /**
   * @param fileOffset how far into the archive file (compressed) the reading is
   */
  ArchiveRecords(TarReader tar, LongSupplier fileOffset) {
    this.tar = tar;
    this.fileOffset = fileOffset;
  }

  /** The next record, or null at the end of the archive (after a {@link Broken}, too). */
  Record next() {
    if (done) {
      return null;
    }
    try {
      while (true) {
        Entry e = lookahead != null ? lookahead : tar.next();
        lookahead = null;
        if (e == null) {
          done = true;
          return null;
        }
        if (!e.isFile()) {
          if (e.type() == '5') {
            continue; // directories say nothing an item's Path does not
          }
          return new Bad(e, "it is not a regular file (a link or a device); passed over");
        }
        String badName = ArchivePaths.checkEntryName(e.name());
        if (e.name().endsWith(".meta")) {
          anyMeta = true;
          return meta(e, badName);
        }
        if (e.name().endsWith(".err")) {
          continue; // met only when the item before it was not read: nothing to flag
        }
        if (badName != null) {
          return new Bad(e, badName);
        }
        return new Orphan(e, anyMeta);
      }
    } catch (BrokenArchiveException e) {
      done = true;
      return new Broken(e.getMessage(), e.offset(), fileOffset.getAsLong());
    } catch (IOException e) {
      done = true;
      return new Broken(
          "the archive cannot be read on: " + e.getMessage(),
          tar.position(),
          fileOffset.getAsLong());
    }
  }

  private Record meta(Entry e, String badName) throws IOException {
    String reason = null;
    byte[] json = null;
    if (e.size() > MAX_META_BYTES) {
      reason =
          "the .meta entry holds "
              + e.size()
              + " bytes; Zimbra's are a few kilobytes (at most "
              + MAX_META_BYTES
              + " are read)";
    } else {
      json = tar.content().readNBytes((int) e.size());
    }
    // the item's content, when it follows: taken with the .meta, even when that is refused
    Entry next = tar.next();
    String base = e.name().substring(0, e.name().length() - ".meta".length());
    Entry content = null;
    if (next != null && next.isFile() && next.name().equals(base)) {
      content = next;
    } else {
      lookahead = next;
    }
    if (reason == null) {
      reason = badName;
    }
    if (reason != null) {
      return new Bad(e, reason);
    }
    try {
      return new ItemRecord(ZimbraMeta.parse(json), e, content);
    } catch (MetaException m) {
      return new Bad(e, m.getMessage());
    }
  }

  /** The bytes of the content entry of the record just returned. */
  InputStream content() {
    return tar.content();
  }

  /**
   * Once a content entry is read to its end: whether Zimbra wrote an {@code .err} entry after it,
   * its mark for a blob whose size did not match the database (the content is padded or cut).
   */
  boolean flaggedAfter(Entry content) throws IOException {
    if (lookahead == null && !done) {
      try {
        lookahead = tar.next();
      } catch (BrokenArchiveException e) {
        return false; // the content is whole; the break is reported as the archive's, next
      }
      if (lookahead == null) {
        done = true;
      }
    }
    if (lookahead != null && lookahead.name().equals(content.name() + ".err")) {
      lookahead = null;
      return true;
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    tar.close();
  }
}
