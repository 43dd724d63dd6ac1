package org.mailrestore.server.api;

/** A source or a target a request names cannot be read: the request's problem, with the reason. */
class SourceUnreadableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  SourceUnreadableException(String message, Throwable cause) {
    super(message, cause);
  }
}
