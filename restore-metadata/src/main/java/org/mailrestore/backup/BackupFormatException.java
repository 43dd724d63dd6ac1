package org.mailrestore.backup;

/** The backup as a whole cannot be read: no manifest, another format, an unknown major version. */
public class BackupFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public BackupFormatException(String message) {
    super(message);
  }

  public BackupFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
