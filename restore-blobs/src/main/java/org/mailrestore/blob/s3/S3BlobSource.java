package org.mailrestore.blob.s3;

import java.io.IOException;
import java.io.InputStream;
import org.mailrestore.blob.BlobLayout;
import org.mailrestore.blob.ProbingBlobSource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** Reads a backup's blobs from a bucket, laid out by {@link BlobLayout} under a prefix. */
public final class S3BlobSource extends ProbingBlobSource {

  private final S3Client client;
  private final S3Location location;

  public S3BlobSource(S3Client client, S3Location location) {
    this.client = client;
    this.location = location;
  }

  @Override
  protected InputStream openStored(String name) throws IOException {
    String key = location.key(name);
    try {
      return client.getObject(b -> b.bucket(location.bucket()).key(key));
    } catch (NoSuchKeyException e) {
      return null;
    } catch (SdkException e) {
      throw S3Errors.io("reading", where(name), e);
    }
  }

  @Override
  protected String where(String name) {
    return location + name;
  }

  @Override
  public String toString() {
    return "S3 blob source " + location;
  }
}
