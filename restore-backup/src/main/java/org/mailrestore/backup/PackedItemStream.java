package org.mailrestore.backup;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.LookAheadItemStream;

/** Reads the packed form: one zstd-compressed JSON Lines stream of item records per account. */
final class PackedItemStream extends LookAheadItemStream {

  /** A record longer than this is refused without being buffered whole. */
  static final int MAX_RECORD_BYTES = 16 << 20;

  private final String location;
  private final Set<ItemType> wanted;
  private final InputStream in;
  private final LineReader lines;
  private boolean done;

  PackedItemStream(InputStream raw, String location, Set<ItemType> wanted) throws IOException {
    this.location = location;
    this.wanted = wanted;
    InputStream decompressed;
    try {
      decompressed = new ZstdInputStream(raw);
    } catch (IOException e) {
      raw.close();
      throw e;
    }
    this.in = decompressed;
    this.lines = new LineReader(decompressed, MAX_RECORD_BYTES, 16 * 1024);
  }

  @Override
  protected ItemEntry advance() {
    while (!done) {
      boolean more;
      try {
        more = lines.next();
      } catch (IOException e) {
        done = true;
        return new ItemEntry.Undecodable(
            0,
            null,
            location + ":" + (lines.lineNumber() + 1),
            "the compressed item stream is truncated or corrupt after line "
                + lines.lineNumber()
                + " ("
                + e.getMessage()
                + "); the records after it cannot be read",
            true);
      }
      if (!more) {
        done = true;
        return null;
      }
      String where = location + ":" + lines.lineNumber();
      if (lines.isTooLong()) {
        return new ItemEntry.Undecodable(
            0, null, where, "the record is longer than " + MAX_RECORD_BYTES + " bytes", false);
      }
      if (lines.isBlank()) {
        continue;
      }
      try {
        Item item = ItemCodec.decode(lines.buffer(), lines.lineStart(), lines.lineLength(), wanted);
        if (item != null) {
          return new ItemEntry.Decoded(item, where);
        }
      } catch (ItemDecodeException e) {
        return new ItemEntry.Undecodable(e.itemId(), e.type(), where, e.getMessage(), false);
      }
    }
    return null;
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
