package org.mailrestore.blob.s3;

import java.io.IOException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Buckets a restore writes to: created when missing, with the rights the profile has. */
public final class S3Buckets {

  private S3Buckets() {}

  /**
   * Creates the bucket when the server does not have it.
   *
   * @return whether it was created
   * @throws IOException when it is missing and cannot be created, saying what to do
   */
  public static boolean ensure(S3Client client, String bucket) throws IOException {
    try {
      client.headBucket(b -> b.bucket(bucket));
      return false;
    } catch (NoSuchBucketException e) {
      // created below
    } catch (S3Exception e) {
      if (e.statusCode() != 404) {
        throw new IOException("bucket " + bucket + " does not answer: " + S3Errors.describe(e), e);
      }
    } catch (SdkException e) {
      throw new IOException("bucket " + bucket + " does not answer: " + S3Errors.describe(e), e);
    }
    try {
      client.createBucket(b -> b.bucket(bucket));
      return true;
    } catch (SdkException e) {
      throw new IOException(
          "bucket "
              + bucket
              + " does not exist and this S3 profile may not create it ("
              + S3Errors.describe(e)
              + "): create it, or give a profile allowed to",
          e);
    }
  }
}
