package org.mailrestore.backup;

import java.io.IOException;
import org.mailrestore.mail.Item;

/** Where item records of one account are written. */
public interface ItemSink extends AutoCloseable {

  void write(Item item) throws IOException;

  @Override
  void close() throws IOException;
}
