package org.mailrestore.export;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.VerifyingInputStream;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.MailstoreReader;
import org.mailrestore.mailstore.MailstoreReader.StoredAccount;
import org.mailrestore.mailstore.MailstoreReader.StoredItem;
import org.mailrestore.mailstore.VolumeStore;

/** A restored mailbox read back from the mailstore: its account, its items page by page, blobs. */
final class MailboxSource {

  private static final int PAGE = 500;

  /** Receives the items of a page with their blobs' locations. */
  @FunctionalInterface
  interface PageVisitor {
    void visit(List<StoredItem> items, Map<BlobDigest, StoredBlob> blobs)
        throws IOException, SQLException;
  }

  private final MailstoreReader reader;
  private final VolumeStore volumeStore;
  private final Map<Integer, BlobVolume> volumes;

  MailboxSource(DataSource dataSource, Map<Integer, BlobVolume> volumes) {
    this.reader = new MailstoreReader(dataSource);
    this.volumeStore = new VolumeStore(dataSource);
    this.volumes = volumes;
  }

  MailstoreReader reader() {
    return reader;
  }

  StoredAccount account(String name) throws SQLException {
    StoredAccount account =
        reader
            .account(name)
            .orElseThrow(() -> new NoSuchElementException("no account " + name + " in the store"));
    if (account.mailboxId() == null) {
      throw new NoSuchElementException("account " + name + " has no mailbox");
    }
    return account;
  }

  /** Every item of these types, in id order, a page at a time. */
  void forEach(int mailboxId, Set<ItemType> types, PageVisitor visitor)
      throws IOException, SQLException {
    Collection<Integer> codes = types.stream().map(ItemType::code).toList();
    int after = 0;
    while (true) {
      List<StoredItem> page = reader.itemsAfter(mailboxId, after, PAGE, codes);
      if (page.isEmpty()) {
        return;
      }
      visitor.visit(page, blobs(page));
      after = page.get(page.size() - 1).row().id();
    }
  }

  private Map<BlobDigest, StoredBlob> blobs(List<StoredItem> page) throws SQLException {
    Map<Integer, List<BlobDigest>> byVolume = new HashMap<>();
    for (StoredItem item : page) {
      ItemRow r = item.row();
      if (r.digest() != null && r.volumeId() != null) {
        byVolume.computeIfAbsent(r.volumeId(), v -> new ArrayList<>()).add(r.digest());
      }
    }
    Map<BlobDigest, StoredBlob> found = new HashMap<>();
    for (Map.Entry<Integer, List<BlobDigest>> e : byVolume.entrySet()) {
      found.putAll(volumeStore.present(e.getKey(), e.getValue()));
    }
    return found;
  }

  /** The item's blob, its digest and size checked as it streams. */
  InputStream open(ItemRow row, Map<BlobDigest, StoredBlob> blobs) throws IOException {
    StoredBlob blob = blobs.get(row.digest());
    BlobVolume volume = volumes.get(row.volumeId());
    if (blob == null || volume == null) {
      throw new BlobException(
          BlobException.Reason.MISSING,
          "blob " + row.digest() + " of item " + row.id() + " is not in volume " + row.volumeId());
    }
    return new VerifyingInputStream(
        volume.open(blob), row.digest(), row.size(), "volume " + row.volumeId());
  }
}
