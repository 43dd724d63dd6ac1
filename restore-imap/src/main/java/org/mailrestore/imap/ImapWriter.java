package org.mailrestore.imap;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.imap.Appending.Placed;
import org.mailrestore.imap.ImapRecords.MessageRow;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.Passing;
import org.mailrestore.sql.Sql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 of one account on the server: folders and keywords, then messages appended in clusters
 * over the user's sessions (one by default, decision 0066; the server's bound on connections holds
 * over all accounts).
 *
 * <p>A cluster's messages are appended, then recorded with the engine's journal in one transaction.
 * A crash between the two leaves messages on the server that no record names: a cluster written
 * again in doubt first looks them up ({@link FolderAppender#find}) and appends only what is not
 * there, so nothing is appended twice.
 */
final class ImapWriter implements MailboxWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ImapWriter.class);
  private static final int ATTEMPTS = 5;

  private final ImapServer server;
  private final ImapRecords records;
  private final ProvisionedAccount account;
  private final WriteContext context;
  private final FolderPaths folders;
  private final TagKeywords keywords;
  private final MessageReader reader;

  /** Why an item of a cluster failed. */
  private record Failure(FailureReason reason, String detail) {}

  /**
   * A cluster's messages are read and appended this many bytes at a time (but one message, whatever
   * its size): read whole with their CRLF copies, a cluster of 64 MiB in each of the clusters in
   * flight would fill a small heap. Mail of ordinary sizes fits one slice.
   */
  static final long SLICE_BYTES = 16L << 20;

  /** A message the server holds now, without its bytes: what the cluster's commit records. */
  private record Sent(Appending appended, Placed placed) {}

  private final UidClaims claimed = new UidClaims();

  /** Sessions of this account at once: its clusters in flight take turns beyond them. */
  private final Semaphore sessions;

  ImapWriter(
      ImapServer server, ImapRecords records, ProvisionedAccount account, WriteContext context)
      throws SQLException {
    this.server = server;
    this.records = records;
    this.account = account;
    this.context = context;
    this.folders = new FolderPaths(records, account.key());
    this.keywords = new TagKeywords(records, account.key());
    this.reader = new MessageReader(context);
    this.sessions = new Semaphore(server.perAccount(), true);
  }

  // ---- sessions ------------------------------------------------------------------------------

  private UserSession borrow() throws IOException {
    try {
      sessions.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a session of " + account.name(), e);
    }
    try {
      return server.session(account.id());
    } catch (IOException | RuntimeException e) {
      sessions.release();
      throw e;
    }
  }

  private void giveBack(UserSession s) {
    server.keep(s);
    sessions.release();
  }

  @Override
  public void close() {
    server.closeIdle(account.id());
    reader.close();
  }

  // ---- cluster 0: folders and tags -------------------------------------------------------------

  @Override
  public Map<Integer, Set<String>> folderNamesByParent() throws SQLException, IOException {
    UserSession s = borrow();
    try {
      return folders.namesByParent(s);
    } finally {
      giveBack(s);
    }
  }

  @Override
  public void writeFolders(FolderBatch batch, ClusterJournal journal)
      throws SQLException, IOException {
    UserSession s = borrow();
    try {
      FolderPaths.Created created = folders.create(s, batch);
      Map<FolderBatch.TagToWrite, Integer> sameAs = new HashMap<>();
      List<FolderBatch.TagToWrite> newTags = new ArrayList<>();
      for (FolderBatch.TagToWrite tag : batch.tags()) {
        Integer existing = keywords.idOf(tag.name());
        if (existing != null) {
          sameAs.put(tag, existing);
        } else {
          newTags.add(tag);
        }
      }
      Sql.inTransaction(
          records.dataSource(),
          c -> {
            folders.record(c, created, journal);
            keywords.record(c, newTags, journal);
            sameAs.forEach(journal::sameAs);
            journal.writeIn(c);
            return null;
          });
      folders.committed();
      keywords.committed();
    } finally {
      giveBack(s);
    }
  }

  // ---- content -------------------------------------------------------------------------------

  @Override
  public Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    return reader.stage(type, content, declared);
  }

  @Override
  public void writeItems(ItemBatch batch, ClusterJournal journal) throws SQLException, IOException {
    Map<ItemToWrite, Failure> failed = new LinkedHashMap<>();
    List<Sent> sent = new ArrayList<>();
    List<SpooledMessage> spools = new ArrayList<>();
    try {
      for (List<ItemToWrite> slice :
          SizedGroups.of(batch.items(), ImapWriter::declaredSize, Integer.MAX_VALUE, SLICE_BYTES)) {
        List<Appending> ready = new ArrayList<>();
        for (ItemToWrite item : slice) {
          prepare(item, ready, failed, spools);
        }
        Map<Appending, Placed> placed = new LinkedHashMap<>();
        Map<Appending, String> refused = new LinkedHashMap<>();
        try {
          append(ready, batch.inDoubt(), placed, refused);
        } finally {
          placed.forEach((m, p) -> sent.add(new Sent(m.withoutBytes(), p)));
        }
        refused.forEach((m, why) ->
            failed.put(
                m.item(),
                new Failure(FailureReason.TARGET_REFUSED, "the server refused it: " + why)));
      }
      commit(sent, failed, journal);
      reader.committed(batch);
    } finally {
      sent.forEach(m -> claimed.release(m.appended().folderId(), m.placed()));
      spools.forEach(SpooledMessage::close);
    }
  }

  private static long declaredSize(ItemToWrite item) {
    return item.staged() != null ? item.staged().size() : item.state().size();
  }

  /**
   * A message as it will be appended. Reading it needs no session: the cluster appending meanwhile
   * keeps the account's one, and a second login costs the server more than a small account's
   * messages (docs/benchmarks.md).
   */
  private void prepare(
      ItemToWrite item,
      List<Appending> ready,
      Map<ItemToWrite, Failure> failed,
      List<SpooledMessage> spools)
      throws IOException, SQLException {
    if (item.type() != ItemType.MESSAGE) {
      failed.put(
          item,
          new Failure(
              FailureReason.NOT_CARRIED,
              "an IMAP server holds messages only, not a " + item.type().wireName()));
      return;
    }
    String folder = folders.known(item.folder());
    if (folder == null) {
      UserSession s = borrow(); // a system folder not made yet, or none at all
      try {
        folder = folders.path(s, item.folder());
      } finally {
        giveBack(s);
      }
    }
    if (folder == null) {
      failed.put(
          item,
          new Failure(
              FailureReason.FOLDER_MISSING,
              "its folder " + item.folder() + " was not created on the server"));
      return;
    }
    List<String> flags = new ArrayList<>(MessageFlags.toImap(item.state().flags()));
    for (String tag : item.state().tags()) {
      flags.add(keywords.keywordFor(tag));
    }
    try {
      ready.add(reader.read(item, folder, flags, spools));
    } catch (BlobException e) {
      failed.put(item, new Failure(FailureReason.of(e.reason()), e.getMessage()));
    }
  }

  /**
   * Appends what is not on the server yet, folder by folder; retries a broken connection or a
   * passing refusal a few times, in doubt (looking first for what the failed attempt appended).
   */
  private void append(
      List<Appending> ready,
      boolean inDoubt,
      Map<Appending, Placed> placed,
      Map<Appending, String> refused)
      throws IOException, SQLException {
    Map<String, List<Appending>> byFolder = new LinkedHashMap<>();
    ready.forEach(m -> byFolder.computeIfAbsent(m.folder(), k -> new ArrayList<>()).add(m));
    for (List<Appending> group : byFolder.values()) {
      boolean doubt = inDoubt;
      for (int attempt = 1; ; attempt++) {
        UserSession s = borrow();
        try {
          appendGroup(s, group, doubt, placed, refused);
          break;
        } catch (IOException e) {
          if (attempt >= ATTEMPTS) {
            throw e;
          }
          LOG.warn(
              "{}: appending to {} failed ({}); retry {} of {}",
              account.name(),
              group.get(0).folder(),
              e.getMessage(),
              attempt,
              ATTEMPTS - 1);
          doubt = true;
          sleep(attempt);
        } finally {
          giveBack(s);
        }
      }
    }
  }

  private void appendGroup(
      UserSession s,
      List<Appending> group,
      boolean inDoubt,
      Map<Appending, Placed> placed,
      Map<Appending, String> refused)
      throws IOException, SQLException {
    List<Appending> todo = new ArrayList<>();
    for (Appending m : group) {
      if (!placed.containsKey(m) && !refused.containsKey(m)) {
        todo.add(m);
      }
    }
    FolderAppender appender =
        new FolderAppender(s, todo.isEmpty() ? "" : todo.get(0).folder(), context.lease());
    if (inDoubt && !todo.isEmpty()) {
      Map<Appending, Placed> found = lookUp(appender, todo);
      placed.putAll(found);
      todo.removeAll(found.keySet());
    }
    if (todo.isEmpty()) {
      return;
    }
    FolderAppender.Outcome outcome = appender.append(todo);
    outcome.placed().forEach((m, p) -> claimed.claim(m.folderId(), p));
    placed.putAll(outcome.placed());
    refused.putAll(outcome.refused());
    List<Appending> unplaced = new ArrayList<>();
    for (Appending m : todo) {
      if (!outcome.placed().containsKey(m) && !outcome.refused().containsKey(m)) {
        unplaced.add(m);
      }
    }
    if (!unplaced.isEmpty()) {
      if (server.firstWithoutUidplus()) {
        LOG.warn(
            "{} reports no APPENDUID (UIDPLUS, RFC 4315): each appended message is looked up"
                + " on the server afterwards, which is slower",
            server.describe());
      }
      Map<Appending, Placed> found = lookUp(appender, unplaced);
      placed.putAll(found);
      for (Appending m : unplaced) {
        if (!found.containsKey(m)) {
          throw new IOException(
              "appended " + m.item().location() + " but cannot find it on the server again");
        }
      }
    }
  }

  /** Finds messages on the server that no record names; one cluster at a time per account. */
  private synchronized Map<Appending, Placed> lookUp(FolderAppender appender, List<Appending> todo)
      throws IOException, SQLException {
    FolderAppender.Contents contents = appender.contents();
    if (contents == null) {
      return Map.of();
    }
    int folderId = todo.get(0).folderId();
    Set<Long> known =
        new HashSet<>(records.recordedUids(account.key(), folderId, contents.uidValidity()));
    known.addAll(claimed.of(folderId, contents.uidValidity()));
    Map<Appending, Placed> found = appender.find(todo, contents, known);
    found.forEach((m, p) -> claimed.claim(folderId, p));
    return found;
  }

  private void commit(List<Sent> sent, Map<ItemToWrite, Failure> failed, ClusterJournal journal)
      throws SQLException {
    Sql.inTransaction(
        records.dataSource(),
        c -> {
          List<MessageRow> rows = new ArrayList<>(sent.size());
          if (!sent.isEmpty()) {
            int next = ImapRecords.allocate(c, account.key(), sent.size());
            for (Sent e : sent) {
              Appending m = e.appended();
              int id = next++;
              rows.add(
                  new MessageRow(
                      id,
                      m.folderId(),
                      e.placed().uidValidity(),
                      e.placed().uid(),
                      m.lineEndings(),
                      m.bareLines(),
                      m.nulBytes()));
              journal.restored(m.item(), id);
            }
            ImapRecords.addMessages(c, account.key(), rows);
          }
          failed.forEach((item, f) -> journal.failed(item, f.reason(), f.detail()));
          journal.writeIn(c);
          return null;
        });
  }

  private static void sleep(int attempt) throws IOException {
    try {
      Thread.sleep(Math.min(8000L, 500L << attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void finish() {}
}
