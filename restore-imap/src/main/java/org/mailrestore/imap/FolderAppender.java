package org.mailrestore.imap;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.Lease;
import org.mailrestore.imap.Appending.Placed;

/**
 * Appends messages to one folder on one session, and finds on the server the messages an earlier
 * attempt appended without recording them.
 *
 * <p>Appends go as MULTIAPPEND commands (RFC 3502) of up to {@link #CHUNK_MESSAGES} messages and
 * {@link #CHUNK_BYTES} bytes where the server offers it, one APPEND per message otherwise, all
 * pipelined. A MULTIAPPEND is all or nothing: when the server refuses one, its messages are sent
 * one by one, so only the message the server refuses fails, with the server's words.
 */
final class FolderAppender {

  /**
   * A cluster's messages of one folder go in one command where they fit in {@link #CHUNK_BYTES}:
   * each command is a transaction of the server's, and a hundred per command made a restore of the
   * Enron tree into Dovecot about 4 % slower (docs/benchmarks.md).
   */
  static final int CHUNK_MESSAGES = 1000;

  static final long CHUNK_BYTES = 8L << 20;

  /** What became of the messages. */
  record Outcome(Map<Appending, Placed> placed, Map<Appending, String> refused) {}

  private final UserSession session;
  private final String folder;
  private final Lease lease;

  FolderAppender(UserSession session, String folder, Lease lease) {
    this.session = session;
    this.folder = folder;
    this.lease = lease;
  }

  /**
   * Appends the messages; a server that reports no APPENDUID leaves them out of {@code placed}
   * (found afterwards with {@link #find}).
   *
   * @throws IOException when the connection fails or the server refuses for a passing reason: the
   *     caller retries the whole group, in doubt
   */
  Outcome append(List<Appending> messages) throws IOException {
    Map<Appending, Placed> placed = new LinkedHashMap<>();
    Map<Appending, String> refused = new LinkedHashMap<>();
    List<List<Appending>> chunks = chunks(messages, session.has("MULTIAPPEND"));
    List<ImapSession.Result> results =
        session.pipeline(chunks.stream().map(this::command).toList(), lease);
    List<Appending> alone = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      List<Appending> chunk = chunks.get(i);
      Response answer = results.get(i).tagged();
      if (answer.isOk()) {
        assign(chunk, answer, placed);
      } else if (chunk.size() > 1 || answer.codeName().equals("TRYCREATE")) {
        alone.addAll(chunk);
      } else {
        refuse(chunk.get(0), answer, refused);
      }
    }
    if (!alone.isEmpty()) {
      List<ImapSession.Result> single =
          session.pipeline(alone.stream().map(m -> command(List.of(m))).toList(), lease);
      for (int i = 0; i < alone.size(); i++) {
        Response answer = single.get(i).tagged();
        if (answer.isOk()) {
          assign(List.of(alone.get(i)), answer, placed);
        } else {
          refuse(alone.get(i), answer, refused);
        }
      }
    }
    return new Outcome(placed, refused);
  }

  private static void refuse(Appending m, Response answer, Map<Appending, String> refused)
      throws ImapException {
    ImapException e = new ImapException("APPEND", answer);
    if (e.isTransient() || answer.codeName().equals("TRYCREATE")) {
      throw e;
    }
    refused.put(m, answer.describe());
  }

  private static void assign(
      List<Appending> chunk, Response answer, Map<Appending, Placed> placed) {
    if (!answer.codeName().equals("APPENDUID")) {
      return;
    }
    String[] args = answer.codeArguments().trim().split("\\s+");
    if (args.length != 2) {
      return;
    }
    long validity = Long.parseLong(args[0]);
    List<Long> uids = UidSet.parse(args[1]);
    if (uids.size() != chunk.size()) {
      return; // not what RFC 4315 promises: look them up instead
    }
    for (int i = 0; i < chunk.size(); i++) {
      placed.put(chunk.get(i), new Placed(validity, uids.get(i)));
    }
  }

  private Command command(List<Appending> chunk) {
    Command c = chunk.get(0).command();
    for (int i = 0; i < chunk.size(); i++) {
      chunk.get(i).addTo(c, i == 0);
    }
    return c;
  }

  private static List<List<Appending>> chunks(List<Appending> messages, boolean multi) {
    return SizedGroups.of(messages, Appending::size, multi ? CHUNK_MESSAGES : 1, CHUNK_BYTES);
  }

  /** The folder's UIDVALIDITY and UIDs, read-only; null when the folder does not exist. */
  record Contents(long uidValidity, List<Long> uids) {}

  /**
   * Selects the folder read-only and answers its UIDVALIDITY, without its UIDs (a folder of a
   * million messages answers a SEARCH of 7 MB); null when the folder does not exist.
   */
  @Nullable Long examine() throws IOException {
    ImapSession.Result examined = session.run(Command.of("EXAMINE").mailbox(folder));
    if (!examined.tagged().isOk()) {
      if (examined.tagged().codeName().equals("NONEXISTENT")
          || examined.tagged().status().equals("NO")) {
        return null;
      }
      throw new ImapException("EXAMINE " + folder, examined.tagged());
    }
    long validity = -1;
    for (Response r : examined.untagged()) {
      if (r.codeName().equals("UIDVALIDITY")) {
        validity = Long.parseLong(r.codeArguments().trim());
      }
    }
    if (validity < 0) {
      throw new IOException(session.user() + ": " + folder + " has no UIDVALIDITY");
    }
    return validity;
  }

  Contents contents() throws IOException {
    Long validity = examine();
    if (validity == null) {
      return null;
    }
    List<Long> uids = new ArrayList<>();
    for (Response r : session.ok(Command.of("UID SEARCH ALL")).untagged()) {
      if (r.is("SEARCH")) {
        for (Object o : r.data().subList(1, r.data().size())) {
          uids.add(Long.parseLong(String.valueOf(o)));
        }
      }
    }
    return new Contents(validity, uids);
  }

  /**
   * Finds, among the folder's messages whose UIDs nobody recorded, each message an earlier attempt
   * appended: same size, same INTERNALDATE and same Message-ID, or, for a message without one, the
   * same bytes. Each server message matches at most one of ours.
   *
   * @param known UIDs recorded (or claimed by a cluster in flight) in this UIDVALIDITY
   */
  Map<Appending, Placed> find(List<Appending> messages, Contents contents, Set<Long> known)
      throws IOException {
    Map<Appending, Placed> found = new HashMap<>();
    List<Long> unknown = contents.uids().stream().filter(u -> !known.contains(u)).toList();
    if (unknown.isEmpty() || messages.isEmpty()) {
      return found;
    }
    List<ServerMessage> candidates = new ArrayList<>();
    for (int from = 0; from < unknown.size(); from += 5000) {
      String set = UidSet.format(unknown.subList(from, Math.min(unknown.size(), from + 5000)));
      ImapSession.Result r =
          session.ok(
              Command.of("UID FETCH")
                  .text(
                      " "
                          + set
                          + " (UID RFC822.SIZE INTERNALDATE"
                          + " BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])"));
      for (Response u : r.untagged()) {
        if (u.is("FETCH")) {
          candidates.add(ServerMessage.of(u));
        }
      }
    }
    for (Appending m : messages) {
      for (Iterator<ServerMessage> it = candidates.iterator(); it.hasNext(); ) {
        ServerMessage s = it.next();
        if (s.size() == m.size()
            && (m.date() <= 0 || s.date() / 1000 == m.date() / 1000)
            && java.util.Objects.equals(s.messageId(), m.messageId())
            && (m.messageId() != null || sameBytes(s.uid(), m))) {
          found.put(m, new Placed(contents.uidValidity(), s.uid()));
          it.remove();
          break;
        }
      }
    }
    return found;
  }

  private boolean sameBytes(long uid, Appending m) throws IOException {
    if (m.spooled() != null) {
      try (InputStream ours = m.spooled().open()) {
        return sameStream(new PartialBody(session, uid), ours);
      }
    }
    for (Response u :
        session.ok(Command.of("UID FETCH").text(" " + uid + " (UID BODY.PEEK[])")).untagged()) {
      if (u.is("FETCH")) {
        byte[] body = ServerMessage.body(u);
        return body != null && Arrays.equals(body, m.crlf());
      }
    }
    return false;
  }

  private static boolean sameStream(InputStream a, InputStream b) throws IOException {
    byte[] x = new byte[1 << 16];
    byte[] y = new byte[1 << 16];
    while (true) {
      int n = a.readNBytes(x, 0, x.length);
      if (b.readNBytes(y, 0, y.length) != n || !Arrays.equals(x, 0, n, y, 0, n)) {
        return false;
      }
      if (n < x.length) {
        return true; // both ended
      }
    }
  }
}
