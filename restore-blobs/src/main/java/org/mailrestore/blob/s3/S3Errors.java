package org.mailrestore.blob.s3;

import org.mailrestore.blob.BlobException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * SDK exceptions in our words: what was done, where, the HTTP status and S3's error code. The S3
 * server's own text (which may name hosts, keys, request ids or the server's build) is not quoted:
 * operations and failures are read by viewers. It stays in the exception's cause, for the log.
 */
public final class S3Errors {

  private S3Errors() {}

  static BlobException io(String action, String where, SdkException e) {
    return new BlobException(
        BlobException.Reason.IO_ERROR, action + " " + where + " failed: " + describe(e), e);
  }

  /** Why an S3 call failed, without the server's words. */
  public static String describe(SdkException e) {
    if (e instanceof AwsServiceException service) {
      String code =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
      return "S3 answered HTTP "
          + service.statusCode()
          + (code == null || !code.matches("[A-Za-z0-9.]{1,64}") ? "" : " (" + code + ")");
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "the S3 endpoint did not answer ("
        + (root == e ? "the client gave up" : root.getClass().getSimpleName())
        + ")";
  }
}
