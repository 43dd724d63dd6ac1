package org.mailrestore.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * Reads an account of any source the way the contracts compare it: its folders' paths (parents
 * first), its messages with their folder, bytes and flags, the digests checked on the way.
 */
public final class SourceReading {

  private SourceReading() {}

  /** What a test opens a local source with: no S3 profiles, the default bounds. */
  public static SourceContext localContext() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    return new SourceContext(S3Profiles.none(registry), StorageLimits.DEFAULT, registry, null);
  }

  /** What an account of the source holds, read back through the source alone. */
  public record Read(Map<Integer, String> folderPaths, List<ReadMessage> messages) {}

  public record ReadMessage(int id, String folder, byte[] content, String flags) {}

  public static Read read(MailSource source, String accountId) throws IOException {
    Map<Integer, Revision> folders = new HashMap<>();
    List<Integer> order = new ArrayList<>();
    try (ItemStream stream = source.items(accountId, ItemType.containers())) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        assertThat(entry).as(entry.location()).isInstanceOf(ItemEntry.Decoded.class);
        Item item = ((ItemEntry.Decoded) entry).item();
        assertThat(item.type().isContainer()).as("containers only").isTrue();
        Revision state = item.latest().orElseThrow();
        // A system folder (a target read back has them) maps onto the target's own: its
        // children are the reference's folders, it is not one of them.
        if (item.type() == ItemType.FOLDER && SystemFolder.byId(item.id()) == null) {
          int parent = state.folderId();
          assertThat(SystemFolder.byId(parent) != null || folders.containsKey(parent))
              .as("folder %s comes after its parent %d", state.name(), parent)
              .isTrue();
          folders.put(item.id(), state);
          order.add(item.id());
        }
      }
    }
    Map<Integer, String> paths = new HashMap<>();
    for (int id : order) {
      Revision f = folders.get(id);
      String parent = paths.get(f.folderId());
      paths.put(id, parent == null ? f.name() : parent + "/" + f.name());
    }
    List<ReadMessage> messages = new ArrayList<>();
    try (ItemStream stream = source.items(accountId, ItemType.contents())) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        assertThat(entry).as(entry.location()).isInstanceOf(ItemEntry.Decoded.class);
        ItemEntry.Decoded d = (ItemEntry.Decoded) entry;
        assertThat(d.item().type().isContainer()).as("content only").isFalse();
        Revision state = d.item().latest().orElseThrow();
        byte[] content;
        if (d.passing() != null) {
          try (InputStream in = d.passing().open()) {
            content = in.readAllBytes();
          }
        } else {
          try (InputStream in = source.blobs().openVerified(state.digest(), state.size())) {
            content = in.readAllBytes();
          }
        }
        if (state.digest() != null) {
          assertThat(state.digest()).isEqualTo(BlobDigest.ofContent(content));
          assertThat(state.size()).isEqualTo(content.length);
        }
        String folder =
            state.folderId() == SystemFolder.INBOX.id() ? "" : paths.get(state.folderId());
        messages.add(new ReadMessage(d.item().id(), folder, content, state.flags()));
      }
    }
    return new Read(paths, messages);
  }

  public static String accountOf(MailSource source, String user) {
    for (String id : source.accountIds()) {
      if (source.account(id) instanceof Parsed.Ok<Account>(Account a, String location)
          && a.name().equals(user + "@" + MailSourceContract.DOMAIN)) {
        return id;
      }
    }
    throw new AssertionError(
        "no account " + user + "@" + MailSourceContract.DOMAIN + " in " + source.describe());
  }
}
