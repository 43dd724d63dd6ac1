package org.mailrestore.blob.pack;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.s3.S3PackStore;
import org.mailrestore.blob.s3.S3TestAccess;

/** The pack store contract for every pack store: local files and S3 objects. */
class PackStoresTest {

  @Nested
  class Local extends PackStoreContract {
    @TempDir Path root;

    @Override
    protected PackStore store(int maxPackSize) throws IOException {
      return new LocalPackStore(root.resolve("packs"), maxPackSize);
    }
  }

  @Nested
  class OnS3 extends PackStoreContract {
    private final S3TestAccess s3 = new S3TestAccess();

    @Override
    protected PackStore store(int maxPackSize) {
      return new S3PackStore(s3.client(), s3.location("packs/"), maxPackSize);
    }
  }
}
