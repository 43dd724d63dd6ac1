package org.mailrestore.imap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.destination.Lease;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.imap.ImapRecords.FolderRow;
import org.mailrestore.imap.ImapRecords.MessageRow;
import org.mailrestore.imap.ImapRecords.TagRow;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.MailSource;

/**
 * What the server holds, read back over IMAP for {@code verify}: each restored message fetched
 * ({@code BODY.PEEK[]}, so nothing is marked seen; one over {@link SpooledMessage#FROM} in slices)
 * with its flags, keywords and INTERNALDATE; folders as the server lists them; grants by GETACL.
 */
final class ImapReadBack implements RestoredStore {

  static final int FETCH_CHUNK = 200;

  /**
   * The bodies one FETCH brings at most (but one message, whatever its size): its answer is held
   * whole until its end, and a verify asks for a thousand messages at once.
   */
  static final long FETCH_BYTES = 32L << 20;

  /**
   * Messages up to this size are held for their content; a larger one is fetched again when its
   * content is opened, so that a thousand large attachments are never held at once.
   */
  static final long HELD_UP_TO = 1L << 20;

  private final ImapServer server;
  private final ImapRecords records;
  private final ImapShares shares;
  private final ContentFetchedAgain again;

  ImapReadBack(ImapServer server, ImapRecords records, ImapShares shares) {
    this.server = server;
    this.records = records;
    this.shares = shares;
    this.again = new ContentFetchedAgain(server);
  }

  @Override
  public Set<Fidelity> fidelity() {
    return EnumSet.of(Fidelity.TAGS, Fidelity.GRANTS);
  }

  @Override
  public Optional<Grant> expected(Grant grant) {
    return ImapShares.kept(grant);
  }

  @Override
  public int flagsKept() {
    return MessageFlags.KEPT;
  }

  @Override
  public Set<SystemFolder> systemFolders() {
    return ServerFolders.KEPT;
  }

  @Override
  public boolean keepsDate(long epochMillis) {
    return epochMillis > 0; // earlier dates are not sent: the server sets the time of the append
  }

  @Override
  public long dateResolutionMillis() {
    return 1000; // INTERNALDATE has seconds
  }

  @Override
  public Optional<RestoredAccount> account(String name) throws SQLException, IOException {
    Optional<Integer> key = records.findAccount(name);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    ProvisionedAccount ref = new ProvisionedAccount(key.get(), name, name, false);
    int at = name.indexOf('@');
    return Optional.of(
        new RestoredAccount(
            ref,
            new Account(
                name,
                name,
                at < 0 ? null : name.substring(at + 1),
                null,
                "active",
                false,
                List.of(),
                Map.of())));
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids)
      throws SQLException, IOException {
    Map<Integer, RestoredItem> found = new HashMap<>();
    Map<Integer, FolderRow> folders = records.folders(account.key());
    Map<String, String> tagNames = new HashMap<>();
    for (TagRow t : records.tags(account.key()).values()) {
      tagNames.put(t.keyword().toLowerCase(java.util.Locale.ROOT), t.name());
    }
    Map<Integer, List<MessageRow>> byFolder = new LinkedHashMap<>();
    for (MessageRow m : records.messages(account.key(), ids)) {
      byFolder.computeIfAbsent(m.folderId(), k -> new ArrayList<>()).add(m);
    }
    inSession(
        account.id(),
        s -> {
          Set<String> onServer = ServerFolders.read(s).paths();
          for (int id : ids) {
            FolderRow f = folders.get(id);
            if (f != null && !SystemFolder.isReserved(id) && onServer.contains(f.path())) {
              Revision state = Revision.builder(1, 0).folder(f.parentId()).name(f.name()).build();
              found.put(id, new RestoredItem(new Item(id, ItemType.FOLDER, List.of(state)), null));
            }
          }
          for (Map.Entry<Integer, List<MessageRow>> e : byFolder.entrySet()) {
            FolderRow f = folders.get(e.getKey());
            if (f != null) {
              fetch(s, account.id(), f, e.getValue(), tagNames, found);
            }
          }
          return null;
        });
    return found;
  }

  /** What a step of the read-back does in a session of a user's. */
  @FunctionalInterface
  private interface Step<T> {
    T run(UserSession s) throws IOException;
  }

  /**
   * Runs {@code step} in a session of the user's, kept idle for the next step: verify asks for a
   * thousand items at a time, and each login costs the server more than most of the step. A session
   * a step failed in is closed.
   */
  private <T> T inSession(String user, Step<T> step) throws IOException {
    UserSession s = server.session(user);
    T result;
    try {
      result = step.run(s);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
    server.keep(s);
    return result;
  }

  private void fetch(
      UserSession s,
      String accountId,
      FolderRow folder,
      List<MessageRow> rows,
      Map<String, String> tagNames,
      Map<Integer, RestoredItem> found)
      throws IOException {
    Long uidValidity = new FolderAppender(s, folder.path(), Lease.HELD).examine();
    if (uidValidity == null) {
      return;
    }
    Map<Long, MessageRow> byUid = new HashMap<>();
    for (MessageRow m : rows) {
      if (m.uidValidity() == uidValidity) {
        byUid.put(m.uid(), m);
      }
    }
    Map<Long, Long> sizes = sizes(s, new ArrayList<>(byUid.keySet()));
    List<Long> held = new ArrayList<>();
    List<Long> large = new ArrayList<>();
    for (long uid : byUid.keySet()) {
      (sizes.getOrDefault(uid, 0L) > SpooledMessage.FROM ? large : held).add(uid);
    }
    for (List<Long> group :
        SizedGroups.of(held, u -> sizes.getOrDefault(u, 0L), FETCH_CHUNK, FETCH_BYTES)) {
      for (Response r :
          s.ok(
                  Command.of("UID FETCH")
                      .text(" " + UidSet.format(group) + " (UID FLAGS INTERNALDATE BODY.PEEK[])"))
              .untagged()) {
        if (!r.is("FETCH")) {
          continue;
        }
        ServerMessage m = ServerMessage.of(r);
        MessageRow row = byUid.get(m.uid());
        if (row == null || m.body() == null) {
          continue;
        }
        byte[] bytes = row.asInSource(m.body());
        RestoredStore.Content content =
            bytes.length <= HELD_UP_TO
                ? () -> new ByteArrayInputStream(bytes)
                : () -> new ByteArrayInputStream(again.whole(accountId, folder, row));
        found.put(
            row.id(),
            restored(row, folder, m, tagNames, bytes.length, BlobDigest.ofContent(bytes), content));
      }
    }
    for (long uid : large) {
      fetchLarge(s, accountId, folder, byUid.get(uid), tagNames, found);
    }
  }

  /**
   * A message too large to fetch whole ({@link SpooledMessage#FROM}): hashed as it streams in
   * slices, and streamed again when its content is opened.
   */
  private void fetchLarge(
      UserSession s,
      String accountId,
      FolderRow folder,
      MessageRow row,
      Map<String, String> tagNames,
      Map<Integer, RestoredItem> found)
      throws IOException {
    ServerMessage m = null;
    for (Response r :
        s.ok(Command.of("UID FETCH").text(" " + row.uid() + " (UID FLAGS INTERNALDATE)"))
            .untagged()) {
      if (r.is("FETCH")) {
        ServerMessage fetched = ServerMessage.of(r);
        if (fetched.uid() == row.uid()) {
          m = fetched;
        }
      }
    }
    if (m == null) {
      return;
    }
    MessageDigest sha256 = BlobDigest.newSha256();
    long size = 0;
    try (InputStream in = row.asInSource(new PartialBody(s, row.uid()))) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) >= 0; ) {
        sha256.update(buffer, 0, n);
        size += n;
      }
    }
    found.put(
        row.id(),
        restored(
            row,
            folder,
            m,
            tagNames,
            size,
            BlobDigest.of(sha256.digest()),
            () -> again.sliced(accountId, folder, row)));
  }

  private static RestoredItem restored(
      MessageRow row,
      FolderRow folder,
      ServerMessage m,
      Map<String, String> tagNames,
      long size,
      BlobDigest digest,
      RestoredStore.Content content) {
    List<String> tags = new ArrayList<>();
    for (String flag : m.flags()) {
      if (!MessageFlags.isMapped(flag)) {
        tags.add(tagNames.getOrDefault(flag.toLowerCase(java.util.Locale.ROOT), flag));
      }
    }
    Revision state =
        Revision.builder(1, 0)
            .folder(folder.id())
            .flags(MessageFlags.fromImap(m.flags()))
            .tags(tags)
            .date(m.date())
            .blob(size, digest)
            .build();
    return new RestoredItem(new Item(row.id(), ItemType.MESSAGE, List.of(state)), content);
  }

  /** The messages' sizes, as the server keeps them in its index (RFC822.SIZE). */
  private static Map<Long, Long> sizes(UserSession s, List<Long> uids) throws IOException {
    Map<Long, Long> sizes = new HashMap<>();
    for (List<Long> some : SizedGroups.of(uids, u -> 0L, FETCH_CHUNK, Long.MAX_VALUE)) {
      String set = UidSet.format(some);
      for (Response r :
          s.ok(Command.of("UID FETCH").text(" " + set + " (UID RFC822.SIZE)")).untagged()) {
        if (r.is("FETCH")) {
          ServerMessage m = ServerMessage.of(r);
          sizes.put(m.uid(), m.size());
        }
      }
    }
    return sizes;
  }

  @Override
  public long countItems(ProvisionedAccount account) throws SQLException, IOException {
    long count = records.tags(account.key()).size();
    try (UserSession s = server.open(account.id())) {
      ServerFolders folders = ServerFolders.read(s);
      for (String path : folders.paths()) {
        for (Response r : s.ok(Command.of("STATUS").mailbox(path).text(" (MESSAGES)")).untagged()) {
          if (r.is("STATUS") && r.data().get(r.data().size() - 1) instanceof List<?> l) {
            count += Long.parseLong(String.valueOf(l.get(1)));
          }
        }
      }
      count +=
          records.folders(account.key()).keySet().stream()
              .filter(id -> !SystemFolder.isReserved(id))
              .count();
    }
    return count;
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) throws SQLException {
    Map<Integer, String> tags = new HashMap<>();
    records.tags(account.key()).values().forEach(t -> tags.put(t.id(), t.name()));
    return tags;
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) throws SQLException, IOException {
    List<Grant> grants = new ArrayList<>();
    try (UserSession s = server.open(account.id())) {
      if (!s.has("ACL")) {
        return grants;
      }
      for (FolderRow f : records.folders(account.key()).values()) {
        ImapSession.Result r = s.run(Command.of("GETACL").mailbox(f.path()));
        if (!r.tagged().isOk()) {
          continue;
        }
        for (Response u : r.untagged()) {
          if (!u.is("ACL")) {
            continue;
          }
          List<Object> d = u.data();
          for (int i = 2; i + 1 < d.size(); i += 2) {
            String who = String.valueOf(d.get(i));
            String rights = AclRights.fromImap(String.valueOf(d.get(i + 1)));
            if (!who.equalsIgnoreCase(account.id()) && !rights.isEmpty()) {
              grants.add(new Grant(f.id(), shares.typeOf(who), who, who, rights));
            }
          }
        }
      }
    }
    return grants;
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account) {
    return Map.of();
  }

  @Override
  public MailSource asSource() {
    return new ImapSource(this, records, server.describe());
  }
}
