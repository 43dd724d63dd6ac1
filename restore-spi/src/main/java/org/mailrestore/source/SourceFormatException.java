package org.mailrestore.source;

/**
 * The source as a whole cannot be read: no manifest, another format, an unknown major version, an
 * archive that is not one. A message a person can act on; never the contents of a file.
 */
public class SourceFormatException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SourceFormatException(String message) {
    super(message);
  }

  public SourceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
