package org.mailrestore.blob.s3;

import org.mailrestore.blob.BlobException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** Turns SDK exceptions into {@link BlobException}s that say what and where. */
final class S3Errors {

  private S3Errors() {}

  static BlobException io(String action, String where, SdkException e) {
    String detail = e.getMessage();
    if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
      detail =
          "HTTP "
              + service.statusCode()
              + " "
              + service.awsErrorDetails().errorCode()
              + ": "
              + service.awsErrorDetails().errorMessage();
    }
    return new BlobException(
        BlobException.Reason.IO_ERROR, action + " " + where + " failed: " + detail, e);
  }
}
