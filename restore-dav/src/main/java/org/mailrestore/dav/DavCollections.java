package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mailrestore.dav.DavClient.Answer;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.destination.FolderBatch;
import org.mailrestore.destination.FolderBatch.FolderToWrite;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.sql.Sql;

/**
 * An account's folders as collections under its home: an address book for a folder of contacts, a
 * calendar of events for one of appointments, a calendar of to-dos for one of tasks. A folder of
 * another view (mail, documents) is recorded without a collection, so that what is under it has a
 * parent. The system folders of contacts, appointments and tasks are made when their first item
 * comes.
 */
final class DavCollections {

  /** Zimbra's colour numbers as {@code #rrggbb} (its palette). */
  private static final String[] COLORS = {
    null, "#0252D4", "#0099A0", "#00833D", "#6B1D9F", "#E51717", "#FFB300", "#EB5EB3", "#8C8C8C",
    "#F16900"
  };

  private final DavServer server;
  private final DavRecords records;
  private final ProvisionedAccount account;
  private Map<Integer, CollectionRow> rows;

  DavCollections(DavServer server, DavRecords records, ProvisionedAccount account) {
    this.server = server;
    this.records = records;
    this.account = account;
  }

  static CollectionKind kindFor(ItemType type) {
    return switch (type) {
      case CONTACT -> CollectionKind.ADDRESSBOOK;
      case APPOINTMENT -> CollectionKind.CALENDAR;
      case TASK -> CollectionKind.TASKS;
      default -> CollectionKind.NONE;
    };
  }

  static String describe(CollectionKind kind) {
    return switch (kind) {
      case ADDRESSBOOK -> "an address book (a folder of contacts)";
      case CALENDAR -> "a calendar (a folder of appointments)";
      case TASKS -> "a task list (a folder of tasks)";
      case NONE -> "no collection";
    };
  }

  private static CollectionKind kindOfView(ItemType type, String view) {
    if (type != ItemType.FOLDER || view == null) {
      return CollectionKind.NONE;
    }
    return switch (view) {
      case "contact" -> CollectionKind.ADDRESSBOOK;
      case "appointment" -> CollectionKind.CALENDAR;
      case "task" -> CollectionKind.TASKS;
      default -> CollectionKind.NONE;
    };
  }

  Map<Integer, Set<String>> namesByParent() throws SQLException {
    Map<Integer, Set<String>> names = new HashMap<>();
    for (CollectionRow r : rows().values()) {
      names
          .computeIfAbsent(r.parentId(), k -> new java.util.HashSet<>())
          .add(r.name().toLowerCase(Locale.ROOT));
    }
    return names;
  }

  /** The collection of a folder (by its id in the target), made now for a system folder. */
  CollectionRow of(int folderId) throws SQLException, IOException {
    CollectionRow row = rows().get(folderId);
    if (row != null || !SystemFolder.isReserved(folderId)) {
      return row;
    }
    SystemFolder system = SystemFolder.byId(folderId);
    if (system == null) {
      return null;
    }
    CollectionKind kind = kindOfView(ItemType.FOLDER, system.view());
    String href = collectionName(folderId, system.folderName()) + "/";
    row = new CollectionRow(folderId, href, system.folderName(), 1, kind, system.view(), 0);
    if (kind != CollectionKind.NONE) {
      makeOnServer(row);
      CollectionRow made = row;
      Sql.inTransaction(
          records.dataSource(),
          c -> {
            DavRecords.addCollection(c, account.key(), made);
            return null;
          });
    }
    rows.put(folderId, row);
    return row;
  }

  /**
   * Makes the collections of a cluster 0 on the server; returns their rows by the folder's id in
   * the source (the recovery folder as {@link FolderBatch#RECOVERY_OLD_ID}), without ids yet. A
   * parent made in the same batch is written {@code -(oldId + 1)}, to be resolved with the ids.
   */
  Map<Integer, CollectionRow> make(FolderBatch batch) throws SQLException, IOException {
    Map<Integer, CollectionRow> made = new LinkedHashMap<>();
    if (batch.recoveryFolderName() != null) {
      made.put(
          FolderBatch.RECOVERY_OLD_ID,
          new CollectionRow(
              0,
              "recovered/",
              batch.recoveryFolderName(),
              SystemFolder.USER_ROOT.id(),
              CollectionKind.NONE,
              null,
              0));
    }
    Map<Integer, Integer> skipped = new HashMap<>();
    for (FolderToWrite f : batch.folders()) {
      int parent =
          switch (f.parent()) {
            case FolderBatch.Parent.System s -> s.id();
            case FolderBatch.Parent.Planned p when skipped.containsKey(p.oldId()) ->
                skipped.get(p.oldId());
            case FolderBatch.Parent.Planned p ->
                batch.restored().containsKey(p.oldId())
                    ? batch.restored().get(p.oldId())
                    : -(p.oldId() + 1);
            case FolderBatch.Parent.Recovery r ->
                batch.restored().containsKey(FolderBatch.RECOVERY_OLD_ID)
                    ? batch.restored().get(FolderBatch.RECOVERY_OLD_ID)
                    : -(FolderBatch.RECOVERY_OLD_ID + 1);
          };
      if (f.type() != ItemType.FOLDER) {
        // Search folders and mountpoints have no place in DAV: what is under them goes one up.
        skipped.put(f.oldId(), parent);
        continue;
      }
      CollectionKind kind = kindOfView(f.type(), f.state().view());
      int color = f.state().color();
      CollectionRow row =
          new CollectionRow(
              0,
              slug(f.name()) + "-" + f.oldId() + "/",
              f.name(),
              parent,
              kind,
              f.state().view(),
              color);
      makeOnServer(row);
      made.put(f.oldId(), row);
    }
    return made;
  }

  /** The recorded collections' ids by their place under the home. */
  Map<String, Integer> idsByHref() throws SQLException {
    Map<String, Integer> ids = new HashMap<>();
    for (CollectionRow r : rows().values()) {
      ids.put(r.href(), r.id());
    }
    return ids;
  }

  /** Forgets the rows read, after cluster 0 added some. */
  void forget() {
    rows = null;
  }

  private Map<Integer, CollectionRow> rows() throws SQLException {
    if (rows == null) {
      rows = new HashMap<>(records.collections(account.key()));
    }
    return rows;
  }

  /** Makes a collection; one already there (a retry, a resume) is taken as it is. */
  private void makeOnServer(CollectionRow row) throws IOException {
    if (row.kind() != CollectionKind.NONE) {
      server.homes().make(account.name(), row);
    }
  }

  /** The error of a server that refused to make a folder's collection. */
  static IOException refused(URI uri, CollectionRow row, Answer a) {
    return new IOException(
        "the DAV server refused to make "
            + uri
            + " for the folder \""
            + row.name()
            + "\" ("
            + a.status()
            + ": "
            + DavClient.brief(a.body())
            + ")");
  }

  static String color(int zimbraColor) {
    return zimbraColor > 0 && zimbraColor < COLORS.length ? COLORS[zimbraColor] : null;
  }

  /**
   * A collection's name, of safe characters: a system folder's own ({@code emailed-contacts}), any
   * other's from its name and its id in the source ({@code work-contacts-300}), unique under a
   * home.
   */
  static String collectionName(int folderId, String name) {
    if (SystemFolder.isReserved(folderId)) {
      return name.toLowerCase(Locale.ROOT).replace(' ', '-');
    }
    return slug(name) + "-" + folderId;
  }

  private static String slug(String name) {
    StringBuilder b = new StringBuilder();
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      boolean safe = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (safe) {
        b.append(c);
      } else if (b.length() > 0 && b.charAt(b.length() - 1) != '-') {
        b.append('-');
      }
      if (b.length() >= 40) {
        break;
      }
    }
    String s = b.toString().replaceAll("-+$", "");
    return s.isEmpty() ? "folder" : s;
  }
}
