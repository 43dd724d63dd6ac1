package org.mailrestore.imap;

import java.io.IOException;

/**
 * The server refused a command (NO or BAD), with its words. Whether it can succeed on a retry
 * follows from the response code (RFC 5530): over quota or a limit, not; unavailable or in use,
 * yes.
 */
final class ImapException extends IOException {

  private final Response response;

  ImapException(String command, Response response) {
    super(command + ": the server said " + response.describe());
    this.response = response;
  }

  Response response() {
    return response;
  }

  /** Whether the same command can succeed later (the server was busy or unavailable). */
  boolean isTransient() {
    return switch (response.codeName()) {
      case "UNAVAILABLE", "INUSE", "SERVERBUG" -> true;
      default -> false;
    };
  }
}
