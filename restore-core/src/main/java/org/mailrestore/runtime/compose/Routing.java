package org.mailrestore.runtime.compose;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * Which part of a composition takes what. An item goes to the part that carries its type and the
 * fewest types beside it (the most specific: contacts to a DAV server rather than to a mailstore
 * that takes everything; ties go to the part given first). A folder goes to the part that takes the
 * type its view holds (a mail folder to the messages' part, an address book to the contacts' part);
 * search folders and mountpoints go to the first part, which is the part that takes messages when
 * one does.
 */
final class Routing {

  private final Map<ItemType, Integer> byType = new EnumMap<>(ItemType.class);

  Routing(List<MailTarget> parts) {
    for (ItemType type : ItemType.contents()) {
      int best = -1;
      for (int i = 0; i < parts.size(); i++) {
        if (parts.get(i).contentTypes().contains(type)
            && (best < 0
                || parts.get(i).contentTypes().size() < parts.get(best).contentTypes().size())) {
          best = i;
        }
      }
      if (best >= 0) {
        byType.put(type, best);
      }
    }
  }

  /**
   * The parts in the order the composition numbers them: the one that takes messages first (else
   * the first that takes content), then the others as given.
   */
  static List<MailTarget> ordered(List<MailTarget> given) {
    int first = new Routing(given).byType.getOrDefault(ItemType.MESSAGE, -1);
    if (first < 0) {
      for (int i = 0; i < given.size() && first < 0; i++) {
        if (!given.get(i).contentTypes().isEmpty()) {
          first = i;
        }
      }
    }
    List<MailTarget> ordered = new ArrayList<>(given);
    if (first > 0) {
      ordered.add(0, ordered.remove(first));
    }
    return ordered;
  }

  /** The part that takes items of this type, or -1 when none carries it. */
  int itemPart(ItemType type) {
    return byType.getOrDefault(type, -1);
  }

  /** The part that takes a folder-like item of this type in this state. */
  int folderPart(ItemType type, Revision state) {
    if (type != ItemType.FOLDER) {
      return 0;
    }
    return viewPart(state.view());
  }

  /** The part that holds a system folder (the Contacts folder with the contacts...). */
  int systemFolderPart(SystemFolder folder) {
    return viewPart(folder.view());
  }

  private int viewPart(String view) {
    ItemType held = view == null ? ItemType.MESSAGE : ItemType.fromWireName(view);
    if (held == null || !ItemType.contents().contains(held)) {
      held = ItemType.MESSAGE;
    }
    int part = itemPart(held);
    return part < 0 ? 0 : part;
  }
}
