package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * What a test's target holds, read back through its source view (whatever the target), so that the
 * engine's tests assert on what was restored rather than on one target's tables.
 */
public final class StoreContents {

  private StoreContents() {}

  /**
   * An item the target holds.
   *
   * @param account its account's address
   * @param id its id in the target
   * @param state its state, with the target's ids
   * @param folder the path of the folder it is in ({@code Inbox}, {@code Work/Projects})
   * @param folderUuid the uuid of the folder it is in, or {@code sys:<id>} for a system folder
   */
  public record Held(
      String account, int id, ItemType type, Revision state, String folder, String folderUuid) {

    /** Its flags as Zimbra's bits. */
    public int flags() {
      return Flags.toBits(state.flags());
    }

    /** Its tags, sorted and joined with commas; null when it has none. */
    public String tags() {
      return state.tags().isEmpty() ? null : String.join(",", new TreeSet<>(state.tags()));
    }

    /** The path of a folder-like item: its folder's and its name. */
    public String path() {
      return folder.isEmpty() ? state.name() : folder + "/" + state.name();
    }
  }

  /** Every user item of every account (system accounts included), tags aside. */
  public static List<Held> held(RestoreFixture f) throws Exception {
    List<Held> held = new ArrayList<>();
    try (MailSource source = f.store().asSource()) {
      for (String id : source.accountIds()) {
        if (source.account(id) instanceof Parsed.Ok<Account>(Account account, String at)) {
          read(source, id, account.name(), held);
        }
      }
    }
    return held;
  }

  private static void read(MailSource source, String id, String account, List<Held> held)
      throws Exception {
    Map<Integer, Revision> containers = new HashMap<>();
    List<Item> items = new ArrayList<>();
    try (ItemStream stream = source.items(id, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().type() != ItemType.TAG) {
          if (d.item().type().isContainer()) {
            containers.put(d.item().id(), d.item().latest().orElseThrow());
          }
          if (d.item().id() >= SystemFolder.FIRST_USER_ID) {
            items.add(d.item());
          }
        }
      }
    }
    for (Item item : items) {
      Revision state = item.latest().orElseThrow();
      int parent = state.folderId();
      String uuid =
          parent < SystemFolder.FIRST_USER_ID
              ? "sys:" + parent
              : containers.containsKey(parent)
                  ? String.valueOf(containers.get(parent).uuid())
                  : "missing:" + parent;
      held.add(new Held(account, item.id(), item.type(), state, path(parent, containers), uuid));
    }
  }

  /** The path of a folder by its id in the target: names from under the user root down. */
  private static String path(int folderId, Map<Integer, Revision> containers) {
    List<String> names = new ArrayList<>();
    int at = folderId;
    for (int depth = 0; depth < 10_000; depth++) {
      if (at == SystemFolder.USER_ROOT.id() || at == SystemFolder.ROOT.id()) {
        break;
      }
      SystemFolder system = SystemFolder.byId(at);
      Revision folder = containers.get(at);
      if (system != null && folder == null) {
        names.add(0, system.folderName());
        at = system.parentId();
        continue;
      }
      if (folder == null) {
        names.add(0, "missing:" + at);
        break;
      }
      names.add(0, folder.name());
      at = folder.folderId();
    }
    return String.join("/", names);
  }

  /** The items of ordinary accounts, as lines that leave the target's ids out. */
  public static TreeSet<String> items(RestoreFixture f) throws Exception {
    TreeSet<String> lines = new TreeSet<>();
    for (Held h : ordinary(f)) {
      Revision s = h.state();
      lines.add(
          String.join(
              "|",
              h.account(),
              s.uuid() == null ? "" : s.uuid(),
              String.valueOf(h.type().code()),
              h.folderUuid(),
              s.name() == null ? "" : s.name(),
              String.valueOf(h.flags()),
              s.subject() == null ? "" : s.subject(),
              s.digest() == null ? "" : s.digest().hex()));
    }
    return lines;
  }

  /** One line per tagged item of ordinary accounts: account, item uuid, tag name. */
  public static TreeSet<String> tags(RestoreFixture f) throws Exception {
    TreeSet<String> lines = new TreeSet<>();
    for (Held h : ordinary(f)) {
      h.state().tags().forEach(tag -> lines.add(h.account() + "|" + h.state().uuid() + "|" + tag));
    }
    return lines;
  }

  private static List<Held> ordinary(RestoreFixture f) throws Exception {
    List<Held> held = new ArrayList<>();
    try (MailSource source = f.store().asSource()) {
      for (String id : source.accountIds()) {
        if (source.account(id) instanceof Parsed.Ok<Account>(Account account, String at)
            && !account.system()) {
          read(source, id, account.name(), held);
        }
      }
    }
    return held;
  }

  /** The addresses of the target's accounts, sorted. */
  public static List<String> accounts(RestoreFixture f) throws Exception {
    try (MailSource source = f.store().asSource()) {
      return source.accountIds().stream()
          .map(source::account)
          .filter(a -> a instanceof Parsed.Ok<Account>)
          .map(a -> ((Parsed.Ok<Account>) a).value().name())
          .sorted()
          .toList();
    }
  }

  /** How many messages the target holds, over every account. */
  public static long messages(RestoreFixture f) throws Exception {
    return held(f).stream().filter(h -> h.type() == ItemType.MESSAGE).count();
  }

  /** How many items with this subject the target holds, over every account. */
  public static long withSubject(RestoreFixture f, String subject) throws Exception {
    return held(f).stream().filter(h -> subject.equals(h.state().subject())).count();
  }

  /** The one message with this subject (the test fails when there is not exactly one). */
  public static Held message(RestoreFixture f, String subject) throws Exception {
    List<Held> found =
        held(f).stream()
            .filter(h -> h.type() == ItemType.MESSAGE && subject.equals(h.state().subject()))
            .toList();
    assertThat(found).as("messages with subject \"%s\"", subject).hasSize(1);
    return found.get(0);
  }

  /** The one message of an account with this subject. */
  public static Held message(RestoreFixture f, String account, String subject) throws Exception {
    List<Held> found =
        held(f).stream()
            .filter(h ->
                h.account().equals(account)
                    && h.type() == ItemType.MESSAGE
                    && subject.equals(h.state().subject()))
            .toList();
    assertThat(found).as("%s's messages with subject \"%s\"", account, subject).hasSize(1);
    return found.get(0);
  }

  /** The paths of the folder-like items of the target's accounts ({@code Work/Projects}). */
  public static List<String> folders(RestoreFixture f) throws Exception {
    return held(f).stream().filter(h -> h.type().isContainer()).map(Held::path).toList();
  }
}
