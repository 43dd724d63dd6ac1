package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceSpec;

/** The verbs administrators look for: one account into another address, one item, one folder. */
class PartialRestoreTest {

  @TempDir Path dir;

  /** The first account's live messages (item id to folder id); its folders' parents too. */
  private static Map<Integer, Integer> messages(
      RestoreFixture f, SourceSpec spec, String[] name, Map<Integer, Integer> parents)
      throws Exception {
    Map<Integer, Integer> messages = new TreeMap<>();
    try (MailSource source = f.runtime.openSource(spec)) {
      String id = source.accountIds().get(0);
      name[0] = ((Parsed.Ok<Account>) source.account(id)).value().name();
      try (ItemStream items = source.items(id, Set.of(ItemType.MESSAGE, ItemType.FOLDER))) {
        while (items.hasNext()) {
          if (items.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
            Revision r = d.item().latest().get();
            (d.item().type() == ItemType.FOLDER ? parents : messages)
                .put(d.item().id(), r.folderId());
          }
        }
      }
    }
    return messages;
  }

  private long count(RestoreFixture f, String account, ItemType type) throws Exception {
    return StoreContents.held(f).stream()
        .filter(h -> h.account().equals(account) && h.type() == type)
        .count();
  }

  @Test
  void oneAccountIntoAnotherAddressThenOneItemThenOneFolder() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(300).withShares(false),
        backup);
    SourceSpec spec = BackupSourceKind.local(backup);
    try (RestoreFixture f = new RestoreFixture()) {
      String[] name = new String[1];
      Map<Integer, Integer> parents = new TreeMap<>();
      Map<Integer, Integer> messages = messages(f, spec, name, parents);
      String copy = "copy-of-" + name[0];

      Selection into =
          new Selection(Set.of(), Set.of(name[0]), false, false, false, false, false, false)
              .withScope(copy, Set.of(), Set.of());
      OperationSummary s = f.restore(RestoreRequest.of(spec).withSelection(into));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.accounts(f)).as("only the copy").containsExactly(copy);
      assertThat(count(f, copy, ItemType.MESSAGE)).isEqualTo(messages.size());

      List<Integer> two = new ArrayList<>(messages.keySet()).subList(0, 2);
      String single = "one-item@acme.example";
      Selection items =
          new Selection(Set.of(), Set.of(name[0]), false, false, false, false, false, false)
              .withScope(single, Set.copyOf(two), Set.of());
      s = f.restore(RestoreRequest.of(spec).withSelection(items));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(count(f, single, ItemType.MESSAGE)).as("the two items asked for").isEqualTo(2);
      assertThat(count(f, single, ItemType.FOLDER))
          .as("with the folders they live in")
          .isEqualTo(count(f, copy, ItemType.FOLDER));

      long inInbox = messages.values().stream().filter(fid -> under(fid, 2, parents)).count();
      String inbox = "inbox-only@acme.example";
      Selection folder =
          new Selection(Set.of(), Set.of(name[0]), false, false, false, false, false, false)
              .withScope(inbox, Set.of(), Set.of("/Inbox"));
      s = f.restore(RestoreRequest.of(spec).withSelection(folder));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(inInbox).isPositive().isLessThan(messages.size());
      assertThat(count(f, inbox, ItemType.MESSAGE))
          .as("the Inbox's mail and its subfolders', nothing else")
          .isEqualTo(inInbox);
    }
  }

  /** Whether a folder is {@code top} or below it. */
  private static boolean under(int folderId, int top, Map<Integer, Integer> parents) {
    Integer at = folderId;
    for (int depth = 0; at != null && depth < 1000; depth++) {
      if (at == top) {
        return true;
      }
      at = parents.get(at);
    }
    return false;
  }
}
