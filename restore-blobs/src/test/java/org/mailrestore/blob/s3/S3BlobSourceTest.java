package org.mailrestore.blob.s3;

import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.BlobSourceContract;
import software.amazon.awssdk.core.sync.RequestBody;

class S3BlobSourceTest extends BlobSourceContract {

  final S3Fixture s3 = new S3Fixture();

  @Override
  protected void place(BlobDigest digest, BlobCompression compression, byte[] stored) {
    s3.client.putObject(
        b ->
            b.bucket(s3.bucket).key("backup/blobs/" + BlobLayout.relativeName(digest, compression)),
        RequestBody.fromBytes(stored));
  }

  @Override
  protected BlobSource source() {
    return new S3BlobSource(s3.client, s3.location("backup/blobs/"));
  }
}
