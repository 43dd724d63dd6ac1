package org.mailrestore.mailstore;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.destination.RestoredStore.Content;
import org.mailrestore.destination.RestoredStore.RestoredItem;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Revision;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;

/** Mailstore rows read back as items (their current state) with where their blobs are. */
final class StoredItems {

  private final VolumeStore volumeStore;
  private final Map<Integer, BlobVolume> volumes;

  StoredItems(VolumeStore volumeStore, Map<Integer, BlobVolume> volumes) {
    this.volumeStore = volumeStore;
    this.volumes = volumes;
  }

  /** The rows as restored items, their blobs located in one query per volume. */
  List<RestoredItem> restored(List<StoredItem> rows) throws SQLException {
    Map<Integer, List<BlobDigest>> byVolume = new HashMap<>();
    for (StoredItem item : rows) {
      ItemRow r = item.row();
      if (r.digest() != null && r.volumeId() != null) {
        byVolume.computeIfAbsent(r.volumeId(), v -> new ArrayList<>()).add(r.digest());
      }
    }
    Map<Integer, Map<BlobDigest, StoredBlob>> located = new HashMap<>();
    for (Map.Entry<Integer, List<BlobDigest>> e : byVolume.entrySet()) {
      located.put(e.getKey(), volumeStore.present(e.getKey(), e.getValue()));
    }
    List<RestoredItem> result = new ArrayList<>(rows.size());
    for (StoredItem item : rows) {
      ItemRow r = item.row();
      Content content = null;
      if (r.digest() != null) {
        StoredBlob blob =
            r.volumeId() == null
                ? null
                : located.getOrDefault(r.volumeId(), Map.of()).get(r.digest());
        content = () -> open(r, blob);
      }
      result.add(new RestoredItem(item(item), content));
    }
    return result;
  }

  private InputStream open(ItemRow row, StoredBlob blob) throws IOException {
    BlobVolume volume = row.volumeId() == null ? null : volumes.get(row.volumeId());
    if (blob == null || volume == null) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "blob " + row.digest() + " of item " + row.id() + " is not in volume " + row.volumeId());
    }
    return volume.open(blob);
  }

  /** A row as an item of one revision: its current state, with the mailstore's ids. */
  static Item item(StoredItem stored) {
    ItemRow r = stored.row();
    Revision.Builder b =
        Revision.builder(1, 0)
            .uuid(r.uuid())
            .folder(r.folderId())
            .name(r.name())
            .flags(Flags.fromBits(r.flags()))
            .tags(stored.tags())
            .date(r.date())
            .sender(r.sender())
            .subject(r.subject())
            .view(r.view())
            .attrs(Json.toMap(r.metadata()));
    if (r.color() != null) {
      b.color(r.color());
    }
    if (r.digest() != null) {
      b.blob(r.size(), r.digest());
    }
    return new Item(r.id(), ItemType.fromCode(r.type()), List.of(b.build()));
  }
}
