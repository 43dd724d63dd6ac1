package org.mailrestore.backup;

import java.io.IOException;
import java.io.InputStream;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.LookAheadItemStream;

/**
 * Reads the loose form: one JSON file per item under {@code items/<NN>/<id>.json}. Shards and files
 * are read in a fixed order (shard name, then numeric id), so every pass sees the same sequence.
 */
final class LooseItemStream extends LookAheadItemStream {

  private final BackupStorage storage;
  private final String directory;
  private final Set<ItemType> wanted;
  private final Iterator<String> shards;
  private Iterator<String> files = List.<String>of().iterator();
  private String shard;

  LooseItemStream(BackupStorage storage, String directory, Set<ItemType> wanted)
      throws IOException {
    this.storage = storage;
    this.directory = directory;
    this.wanted = wanted;
    this.shards = storage.list(directory).iterator();
  }

  @Override
  protected ItemEntry advance() {
    while (true) {
      if (!files.hasNext()) {
        if (!shards.hasNext()) {
          return null;
        }
        shard = shards.next();
        String shardDir = directory + "/" + shard;
        try {
          List<String> names = storage.list(shardDir);
          files =
              names.stream()
                  .sorted(Comparator.comparingLong(LooseItemStream::numericPart))
                  .iterator();
        } catch (IOException e) {
          return new ItemEntry.Undecodable(
              0, null, shardDir, "cannot list: " + e.getMessage(), false);
        }
        continue;
      }
      ItemEntry entry = read(files.next());
      if (entry != null) {
        return entry;
      }
    }
  }

  private ItemEntry read(String fileName) {
    String path = directory + "/" + shard + "/" + fileName;
    int idFromName = (int) Math.min(Integer.MAX_VALUE, Math.max(0, numericPart(fileName)));
    if (!fileName.endsWith(BackupLayout.JSON) || idFromName <= 0) {
      return new ItemEntry.Undecodable(0, null, path, "not an item file (want <id>.json)", false);
    }
    try (InputStream in = storage.open(path)) {
      Item item = ItemCodec.decode(in, wanted);
      if (item == null) {
        return null;
      }
      if (item.id() != idFromName) {
        return new ItemEntry.Undecodable(
            idFromName,
            item.type(),
            path,
            "the file name says item " + idFromName + " but the record says " + item.id(),
            false);
      }
      return new ItemEntry.Decoded(item, path);
    } catch (ItemDecodeException e) {
      return new ItemEntry.Undecodable(
          e.itemId() > 0 ? e.itemId() : idFromName, e.type(), path, e.getMessage(), false);
    } catch (IOException e) {
      return new ItemEntry.Undecodable(
          idFromName, null, path, "cannot read: " + e.getMessage(), false);
    }
  }

  private static long numericPart(String fileName) {
    int dot = fileName.indexOf('.');
    String digits = dot < 0 ? fileName : fileName.substring(0, dot);
    if (digits.isEmpty() || digits.length() > 10 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(digits);
  }
}
