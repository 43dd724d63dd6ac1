package org.mailrestore.imap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.imap.ImapSession.Result;

/**
 * The server's answers on one connection, matched to the commands that asked for them: a pipeline
 * sends several commands before it reads, and a literal's go-ahead may come after the answers to
 * earlier commands (or instead of itself, when the server refuses the literal). A {@code BYE} ends
 * the session with an {@link IOException}.
 */
final class Answers {

  private final ResponseReader reader;
  private final String server;

  /**
   * Answers read while a literal waited for its go-ahead: a command the server refused before its
   * literal (a message over its size limit), or one sent before it in a pipeline.
   */
  private final Map<String, Result> answeredEarly = new HashMap<>();

  /** Untagged data read while a literal waited for its go-ahead, for the next answer collected. */
  private final List<Response> untaggedEarly = new ArrayList<>();

  Answers(ResponseReader reader, String server) {
    this.reader = reader;
    this.server = server;
  }

  /** The next response as it comes (the greeting, a step of an authentication). */
  Response next() throws IOException {
    return reader.read();
  }

  /**
   * Waits for the server's go-ahead for a literal of command {@code tag}; false when the server
   * answered the command instead (RFC 3501 §7.5: it may refuse the literal), which then has ended.
   */
  boolean goAhead(String tag) throws IOException {
    while (true) {
      Response r = reader.read();
      if (r.isContinuation()) {
        return true;
      }
      if (r.isUntagged()) {
        checkNotBye(r);
        untaggedEarly.add(r);
        continue;
      }
      answeredEarly.put(r.tag(), new Result(r, takeUntaggedEarly()));
      if (tag.equals(r.tag())) {
        return false;
      }
    }
  }

  /** The answer to command {@code tag}, with the untagged data that came before it. */
  Result collect(String tag) throws IOException {
    Result early = answeredEarly.remove(tag);
    if (early != null) {
      return early;
    }
    List<Response> untagged = takeUntaggedEarly();
    while (true) {
      Response r = reader.read();
      if (r.isUntagged()) {
        checkNotBye(r);
        untagged.add(r);
      } else if (tag.equals(r.tag())) {
        return new Result(r, untagged);
      } else if (!r.isContinuation()) {
        // The answer to an earlier command of a pipeline that failed: keep reading.
        untagged.add(r);
      } else {
        throw new IOException(server + " asked for a continuation nobody waits for");
      }
    }
  }

  private void checkNotBye(Response untagged) throws IOException {
    if ("BYE".equals(untagged.status())) {
      throw new IOException(server + " closed the session: " + untagged.describe());
    }
  }

  private List<Response> takeUntaggedEarly() {
    List<Response> taken = new ArrayList<>(untaggedEarly);
    untaggedEarly.clear();
    return taken;
  }
}
