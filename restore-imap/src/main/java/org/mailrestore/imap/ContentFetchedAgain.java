package org.mailrestore.imap;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.mailrestore.destination.Lease;
import org.mailrestore.imap.ImapRecords.FolderRow;
import org.mailrestore.imap.ImapRecords.MessageRow;

/**
 * A restored message's content fetched again as it is opened (verify, export), rather than held
 * from the read-back: whole up to {@link SpooledMessage#FROM}, in slices past it (decision 0071).
 */
final class ContentFetchedAgain {

  private final ImapServer server;

  ContentFetchedAgain(ImapServer server) {
    this.server = server;
  }

  /** The message's bytes as the source had them, fetched whole. */
  byte[] whole(String accountId, FolderRow folder, MessageRow row) throws IOException {
    UserSession s = selected(accountId, folder, row);
    try {
      for (Response r :
          s.ok(Command.of("UID FETCH").text(" " + row.uid() + " (UID BODY.PEEK[])")).untagged()) {
        if (r.is("FETCH")) {
          ServerMessage m = ServerMessage.of(r);
          if (m.uid() == row.uid() && m.body() != null) {
            server.keep(s);
            return row.asInSource(m.body());
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    server.keep(s);
    throw gone(folder, row);
  }

  /** The message's bytes as the source had them, as they stream in slices over their session. */
  InputStream sliced(String accountId, FolderRow folder, MessageRow row) throws IOException {
    UserSession s = selected(accountId, folder, row);
    return new FilterInputStream(row.asInSource(new PartialBody(s, row.uid()))) {
      private boolean closed;

      @Override
      public void close() {
        if (!closed) {
          closed = true;
          if (s.isBroken()) {
            s.close();
          } else {
            server.keep(s);
          }
        }
      }
    };
  }

  /** A session of the user's with the message's folder selected, as the records know it. */
  private UserSession selected(String accountId, FolderRow folder, MessageRow row)
      throws IOException {
    UserSession s = server.session(accountId);
    try {
      Long uidValidity = new FolderAppender(s, folder.path(), Lease.HELD).examine();
      if (uidValidity == null || uidValidity != row.uidValidity()) {
        throw gone(folder, row);
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private static IOException gone(FolderRow folder, MessageRow row) {
    return new IOException(
        "message " + row.uid() + " of " + folder.path() + " is no longer on the server");
  }
}
