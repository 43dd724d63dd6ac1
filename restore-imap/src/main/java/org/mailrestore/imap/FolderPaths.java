package org.mailrestore.imap;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.destination.ClusterJournal;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.imap.ImapRecords.FolderRow;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.sql.Sql;

/**
 * An account's folders: target ids (system folders keep the backup's ids, restored ones get new
 * ones) to server paths. Folders are created on the server first and recorded with cluster 0's
 * journal; a folder found existing on the server is taken as it is, so a re-run after a crash
 * creates nothing twice.
 */
final class FolderPaths {

  /**
   * A folder created on the server in cluster 0, to record.
   *
   * @param name the folder's name in the source (what verify and export read back)
   * @param refused why the server refused the planned name, when the folder was made under a plain
   *     one instead; else null
   */
  record Made(FolderToWrite folder, String path, String name, Parent parent, String refused) {}

  /** Where a made folder hangs: a target id known now, or another made folder. */
  record Parent(Integer id, Made made) {}

  /** What cluster 0 made: the recovery folder (or null) and the folders. */
  record Created(Made recovery, List<Made> folders) {}

  private final ImapRecords records;
  private final int accountId;
  private final Map<Integer, FolderRow> rows;
  private final Map<Made, Integer> ids = new HashMap<>();

  /** Paths of the folders {@link #create} made or found in this run, recorded or not yet. */
  private final Set<String> madePaths = new HashSet<>();

  private ServerFolders layout;

  FolderPaths(ImapRecords records, int accountId) throws SQLException {
    this.records = records;
    this.accountId = accountId;
    this.rows = new HashMap<>(records.folders(accountId));
  }

  private ServerFolders layout(UserSession s) throws IOException {
    if (layout == null) {
      layout = ServerFolders.read(s);
    }
    return layout;
  }

  /**
   * The names the restore must not take: only those of the system folders a server has (a backup's
   * "sent" folder under the root becomes "sent (2)" beside Sent, as verify plans it). A folder the
   * server already holds under a planned name is taken as it is, not renamed: the user's own folder
   * receives the restored messages (a merge, as IMAP migration tools do), and a folder that a
   * killed run created but did not record is found again on resume.
   */
  synchronized Map<Integer, Set<String>> namesByParent(UserSession s) throws IOException {
    layout = ServerFolders.read(s);
    Set<String> top = new HashSet<>();
    for (SystemFolder f : ServerFolders.KEPT) {
      if (f.parentId() == SystemFolder.USER_ROOT.id()) {
        top.add(f.folderName().toLowerCase(Locale.ROOT));
      }
    }
    return Map.of(SystemFolder.USER_ROOT.id(), top);
  }

  /** Creates cluster 0's folders on the server, parents first. */
  synchronized Created create(UserSession s, FolderBatch batch) throws IOException, SQLException {
    ServerFolders server = layout(s);
    Made recovery = null;
    if (batch.recoveryFolderName() != null) {
      String path = server.child("", batch.recoveryFolderName());
      server.create(s, path, null);
      madePaths.add(path);
      recovery =
          new Made(
              null,
              path,
              batch.recoveryFolderName(),
              new Parent(SystemFolder.USER_ROOT.id(), null),
              null);
    }
    Map<Integer, Made> planned = new HashMap<>();
    Map<Integer, Parent> skipped = new HashMap<>();
    List<Made> made = new ArrayList<>();
    for (FolderToWrite f : batch.folders()) {
      Parent parent =
          switch (f.parent()) {
            case FolderBatch.Parent.System(int id) -> new Parent(system(s, id), null);
            case FolderBatch.Parent.Planned(int oldId) -> {
              if (planned.containsKey(oldId)) {
                yield new Parent(null, planned.get(oldId));
              } else if (skipped.containsKey(oldId)) {
                yield skipped.get(oldId);
              } else {
                Integer restored = batch.restored().get(oldId);
                yield new Parent(restored == null ? SystemFolder.USER_ROOT.id() : restored, null);
              }
            }
            case FolderBatch.Parent.Recovery() -> {
              Integer restored = batch.restored().get(FolderBatch.RECOVERY_OLD_ID);
              yield recovery != null ? new Parent(null, recovery) : new Parent(restored, null);
            }
          };
      if (f.type() != ItemType.FOLDER) {
        skipped.put(f.oldId(), parent); // search folders and mountpoints: no IMAP folder
        continue;
      }
      String path = server.child(parentPath(parent), f.name());
      String refused = null;
      try {
        server.create(s, path, null);
      } catch (ImapException e) {
        // A name this server takes no character of (Cyrus: * % " \ and control characters): the
        // folder and its messages are restored under a plain name, reported as a repair.
        String plain = ServerFolders.plainName(f.name());
        if (plain.equals(f.name())) {
          throw e;
        }
        path = server.child(parentPath(parent), plain);
        server.create(s, path, null);
        refused = e.response().describe();
      }
      madePaths.add(path);
      Made m = new Made(f, path, f.name(), parent, refused);
      planned.put(f.oldId(), m);
      made.add(m);
    }
    return new Created(recovery, made);
  }

  private String parentPath(Parent parent) {
    if (parent.made() != null) {
      return parent.made().path();
    }
    FolderRow row = rows.get(parent.id());
    return row == null ? "" : row.path();
  }

  private int system(UserSession s, int id) throws IOException {
    SystemFolder f = SystemFolder.byId(id);
    if (f == null || rows.containsKey(id)) {
      return id;
    }
    String path = layout(s).system(s, f, taken());
    FolderRow row = new FolderRow(id, path, f.folderName(), f.parentId());
    rows.put(id, row);
    return id;
  }

  /**
   * The server folders the account's restore holds something in already: recorded rows, and what
   * cluster 0 of this run made. None of them can be a system folder still to find.
   */
  private Set<String> taken() {
    Set<String> taken = new HashSet<>(madePaths);
    for (FolderRow row : rows.values()) {
      taken.add(row.path());
    }
    taken.remove("");
    taken.remove("INBOX");
    return taken;
  }

  /** Records what {@link #create} made, in the caller's transaction, and tells the journal. */
  synchronized void record(Connection c, Created created, ClusterJournal journal)
      throws SQLException {
    ids.clear();
    for (FolderRow row : rows.values()) {
      if (SystemFolder.isReserved(row.id())) {
        ImapRecords.addFolder(c, accountId, row); // found on the server before this commit
      }
    }
    int count = created.folders().size() + (created.recovery() == null ? 0 : 1);
    if (count == 0) {
      return;
    }
    int next = ImapRecords.allocate(c, accountId, count);
    List<Made> all = new ArrayList<>();
    if (created.recovery() != null) {
      all.add(created.recovery());
    }
    all.addAll(created.folders());
    for (Made m : all) {
      int id = next++;
      ids.put(m, id);
      Parent p = m.parent();
      int parentId = parentId(p);
      ImapRecords.addFolder(c, accountId, new FolderRow(id, m.path(), m.name(), parentId));
      if (m.folder() == null) {
        journal.mapped(FolderBatch.RECOVERY_OLD_ID, id);
      } else {
        journal.restored(m.folder(), id);
      }
      if (m.refused() != null) {
        journal.renamed(
            m.folder(),
            ServerFolders.plainName(m.name()),
            "the server refused the name " + m.name() + " (" + m.refused() + ")");
      }
    }
  }

  /** Keeps what was recorded, once committed. */
  synchronized void committed() {
    for (Map.Entry<Made, Integer> e : ids.entrySet()) {
      Made m = e.getKey();
      Parent p = m.parent();
      int parentId = parentId(p);
      rows.put(e.getValue(), new FolderRow(e.getValue(), m.path(), m.name(), parentId));
    }
    ids.clear();
  }

  /** The server path of a folder made or found already, or null. */
  synchronized String known(int folderId) {
    FolderRow row = rows.get(folderId);
    return row == null ? null : row.path();
  }

  /** The server path of a folder by target id; a system folder is found or created. */
  synchronized String path(UserSession s, int folderId) throws IOException, SQLException {
    FolderRow row = rows.get(folderId);
    if (row != null) {
      return row.path();
    }
    if (SystemFolder.byId(folderId) == null) {
      return null;
    }
    system(s, folderId);
    FolderRow made = rows.get(folderId);
    Sql.inTransaction(
        records.dataSource(),
        c -> {
          ImapRecords.addFolder(c, accountId, made);
          return null;
        });
    return made.path();
  }

  /**
   * A parent's id: a folder made in this batch was given its id before its children (the engine
   * plans parents first), so a missing one is a fault of ours, said as such.
   */
  private int parentId(Parent p) {
    if (p.made() == null) {
      return p.id();
    }
    Integer id = ids.get(p.made());
    if (id == null) {
      throw new IllegalStateException("folder " + p.made().path() + " is made after its children");
    }
    return id;
  }
}
