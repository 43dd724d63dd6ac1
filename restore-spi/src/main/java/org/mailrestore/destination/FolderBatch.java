package org.mailrestore.destination;

import java.util.List;
import java.util.Map;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;

/**
 * An account's folder-like items and tags, planned by the engine (parents first; orphans, cycles
 * and name clashes repaired and renamed): cluster 0 of the account.
 *
 * @param folders the folders to create, parents before children
 * @param recoveryFolderName the recovery folder to create under the user root first, or null
 * @param restored backup ids an earlier run restored already (the recovery folder as {@link
 *     #RECOVERY_OLD_ID}), with their ids in the target: parents may be among them
 * @param tags the tags to create, unless the mailbox has one of the same name
 */
public record FolderBatch(
    List<FolderToWrite> folders,
    String recoveryFolderName,
    Map<Integer, Integer> restored,
    List<TagToWrite> tags) {

  /** The id the recovery folder has in the id map (no source item has id 0). */
  public static final int RECOVERY_OLD_ID = 0;

  /** Where a planned folder goes: a system folder, another planned folder, or the recovery one. */
  public sealed interface Parent {
    /** A system folder of the target, by its Zimbra id. */
    record System(int id) implements Parent {}

    /** A folder of this batch, or one of {@code restored}, by its id in the source. */
    record Planned(int oldId) implements Parent {}

    /** The recovery folder. */
    record Recovery() implements Parent {}
  }

  public FolderBatch {
    folders = List.copyOf(folders);
    restored = Map.copyOf(restored);
    tags = List.copyOf(tags);
  }

  /**
   * A folder to create.
   *
   * @param parent a system folder, a folder of this batch or of {@code restored}, or the recovery
   *     folder
   * @param name the name to give it (it may differ from the backup's, the engine renames a folder
   *     whose name is taken)
   */
  public record FolderToWrite(
      int oldId, ItemType type, Parent parent, String name, Revision state, String location) {}

  /**
   * A tag to create.
   *
   * @param color Zimbra's colour number, or -1
   */
  public record TagToWrite(int oldId, String name, int color, String location) {}
}
