package org.mailrestore.source;

/** The backup as a whole cannot be read: no manifest, another format, an unknown major version. */
public class SourceFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SourceFormatException(String message) {
    super(message);
  }

  public SourceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
