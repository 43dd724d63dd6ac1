package org.mailrestore.backup.generate;

import java.io.IOException;
import org.mailrestore.blob.BlobDigest;

/** Where the generator writes blobs (once per digest), and the list mail accounts share. */
interface BlobStore {

  void put(BlobDigest digest, byte[] content) throws IOException;

  SharedMessage shared(int poolIndex) throws IOException;

  /** A message delivered to several accounts: one blob, many items. */
  record SharedMessage(BlobDigest digest, int size, String sender, String subject, long date) {}
}
