package org.mailrestore.runtime;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.ForwardingBlobSource;
import org.mailrestore.mail.ItemType;
import org.mailrestore.restore.ReadCounter;
import org.mailrestore.source.ForwardingMailSource;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/** A source that counts what is read from it into a {@link ReadCounter}, changing nothing. */
public final class CountedSource extends ForwardingMailSource {

  private final ReadCounter counter;
  private final BlobSource blobs;

  public CountedSource(MailSource delegate, ReadCounter counter) {
    super(delegate);
    this.counter = counter;
    this.blobs =
        new ForwardingBlobSource(delegate.blobs()) {
          @Override
          public InputStream open(BlobDigest digest) throws IOException {
            return new FilterInputStream(super.open(digest)) {
              @Override
              public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                  counter.bytes(1);
                }
                return b;
              }

              @Override
              public int read(byte[] buffer, int off, int len) throws IOException {
                int n = super.read(buffer, off, len);
                if (n > 0) {
                  counter.bytes(n);
                }
                return n;
              }
            };
          }
        };
  }

  @Override
  public List<String> accountIds() {
    List<String> ids = delegate.accountIds();
    counter.accountsTotal(ids.size());
    return ids;
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    counter.account(accountId);
    ItemStream items = delegate.items(accountId, types);
    return new ItemStream() {
      @Override
      public boolean hasNext() {
        return items.hasNext();
      }

      @Override
      public ItemEntry next() {
        ItemEntry entry = items.next();
        counter.item(entry);
        return entry;
      }

      @Override
      public void close() {
        items.close();
      }
    };
  }

  @Override
  public BlobSource blobs() {
    return blobs;
  }
}
