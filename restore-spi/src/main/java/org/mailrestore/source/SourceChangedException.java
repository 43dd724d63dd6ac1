package org.mailrestore.source;

import java.io.IOException;

/**
 * The source is not the one the operation started with: removed, unreadable, or another put in its
 * place. What was read from it before cannot be known complete.
 */
public final class SourceChangedException extends IOException {

  private static final long serialVersionUID = 1L;

  public SourceChangedException(String message) {
    super(message);
  }

  public SourceChangedException(String message, Throwable cause) {
    super(message, cause);
  }
}
