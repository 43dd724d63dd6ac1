package org.mailrestore.blob;

import java.io.IOException;

/**
 * A blob could not be read or written, for a reason a person can act on.
 *
 * <p>The {@link Reason} is a stable code for failure lists and metrics; the message names the blob
 * and where it was looked for.
 */
public class BlobException extends IOException {

  private static final long serialVersionUID = 1L;

  /** Why a blob failed; bounded, so it can be a metric tag. */
  public enum Reason {
    /** The source has no blob with that digest. */
    MISSING,
    /** The bytes read hash to another digest. */
    DIGEST_MISMATCH,
    /** The blob has more or fewer bytes than its item declares. */
    SIZE_MISMATCH,
    /** A compressed blob could not be decompressed. */
    CORRUPT_COMPRESSION,
    /** Reading or writing failed (I/O error, timeout, refused request). */
    IO_ERROR,
    /** The item is larger than the largest item a restore reads (a decompression bomb, say). */
    TOO_LARGE
  }

  private final Reason reason;

  public BlobException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public BlobException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
