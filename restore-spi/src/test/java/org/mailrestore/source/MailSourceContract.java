package org.mailrestore.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;

/**
 * What every {@link MailSource} must do, whatever its format. An implementation's test extends this
 * class and lays a reference set of mailboxes out in its own format; the contract reads it back
 * through the source and checks accounts, folders (parents first), messages in their folders, their
 * exact bytes, their flags, stable ids and references.
 */
public abstract class MailSourceContract {

  /** The domain of the reference accounts. */
  public static final String DOMAIN = "example.org";

  /**
   * A message of the reference set.
   *
   * @param folder its folder's path ({@code Work/Projects}), or "" for the inbox
   * @param flags Zimbra flag letters ({@code u} unread, {@code f} flagged, {@code r} replied)
   */
  public record Message(String folder, byte[] content, String flags) {}

  /**
   * A mailbox of the reference set.
   *
   * @param user its directory or local part
   * @param folders its folders' paths, parents before children (empty ones included)
   */
  public record Mailbox(String user, List<String> folders, List<Message> messages) {}

  @TempDir protected Path dir;

  /** Lays the mailboxes out in the source's format under {@code root} and opens the source. */
  protected abstract MailSource open(Path root, List<Mailbox> mailboxes) throws IOException;

  /**
   * The mailboxes the tests lay out: the reference, or what of it the format can hold (a format
   * without flags drops them; a single-account format keeps alice).
   */
  protected List<Mailbox> mailboxes() {
    return reference();
  }

  /** The reference: two users, nested and empty folders, CRLF and LF, 8-bit bytes, flags. */
  protected static List<Mailbox> reference() {
    return List.of(
        new Mailbox(
            "alice",
            List.of("Work", "Work/Projects", "Empty"),
            List.of(
                message("", "Hello", "\r\n", ""),
                message("", "Unread one", "\n", "u"),
                message("Work", "Quarterly \u00e9t\u00e9", "\r\n", "f"),
                message("Work/Projects", "Deep", "\n", "ru"),
                new Message(
                    "Work",
                    ("From: x@example.org\nSubject: latin1 \u00e9\n\ncaf\u00e9\n")
                        .getBytes(StandardCharsets.ISO_8859_1),
                    ""))),
        new Mailbox("bob", List.of("Archive"), List.of(message("", "Only one", "\r\n", "fr"))));
  }

  private static Message message(String folder, String subject, String eol, String flags) {
    String text =
        "From: Someone <someone@example.org>"
            + eol
            + "To: x@example.org"
            + eol
            + "Subject: "
            + subject
            + eol
            + "Date: Mon, 14 May 2001 16:39:00 -0700"
            + eol
            + eol
            + "Body of "
            + subject
            + eol;
    return new Message(folder, text.getBytes(StandardCharsets.UTF_8), flags);
  }

  /** What an account of the source holds, read back through the source alone. */
  private record Read(Map<Integer, String> folderPaths, List<ReadMessage> messages) {}

  private record ReadMessage(int id, String folder, byte[] content, String flags) {}

  private static Read read(MailSource source, String accountId) throws IOException {
    Map<Integer, Revision> folders = new HashMap<>();
    List<Integer> order = new ArrayList<>();
    try (ItemStream stream = source.items(accountId, ItemType.containers())) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        assertThat(entry).as(entry.location()).isInstanceOf(ItemEntry.Decoded.class);
        Item item = ((ItemEntry.Decoded) entry).item();
        assertThat(item.type().isContainer()).as("containers only").isTrue();
        Revision state = item.latest().orElseThrow();
        if (item.type() == ItemType.FOLDER) {
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

  private static String accountOf(MailSource source, String user) {
    for (String id : source.accountIds()) {
      if (source.account(id) instanceof Parsed.Ok<Account>(Account a, String location)
          && a.name().equals(user + "@" + DOMAIN)) {
        return id;
      }
    }
    throw new AssertionError("no account " + user + "@" + DOMAIN + " in " + source.describe());
  }

  @Test
  void accountsAreTheMailboxesWithTheirAddressesAndDomain() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      assertThat(source.accountIds()).hasSameSizeAs(mailboxes());
      Set<String> names = new HashSet<>();
      for (String id : source.accountIds()) {
        Account a = ((Parsed.Ok<Account>) source.account(id)).value();
        names.add(a.name());
        assertThat(a.domain()).isEqualTo(DOMAIN);
      }
      assertThat(names)
          .containsExactlyInAnyOrderElementsOf(
              mailboxes().stream().map(m -> m.user() + "@" + DOMAIN).toList());
      assertThat(source.domains())
          .anySatisfy(d -> assertThat(((Parsed.Ok<Domain>) d).value().name()).isEqualTo(DOMAIN));
      assertThat(source.account("nobody-here")).isInstanceOf(Parsed.Failed.class);
    }
  }

  @Test
  void foldersComeParentsFirstAndMessagesLiveInThemByteForByte() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      for (Mailbox mailbox : mailboxes()) {
        Read read = read(source, accountOf(source, mailbox.user()));
        assertThat(new HashSet<>(read.folderPaths().values()))
            .as(mailbox.user() + "'s folders")
            .isEqualTo(new HashSet<>(mailbox.folders()));
        assertThat(read.messages()).hasSameSizeAs(mailbox.messages());
        List<String> expected = new ArrayList<>();
        mailbox.messages().forEach(m -> expected.add(m.folder() + "|" + bytes(m.content())));
        List<String> actual = new ArrayList<>();
        read.messages().forEach(m -> actual.add(m.folder() + "|" + bytes(m.content())));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void flagsSurvive() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      for (Mailbox mailbox : mailboxes()) {
        Read read = read(source, accountOf(source, mailbox.user()));
        List<String> expected = new ArrayList<>();
        mailbox
            .messages()
            .forEach(m -> expected.add(bytes(m.content()) + "|" + Flags.normalize(m.flags())));
        List<String> actual = new ArrayList<>();
        read.messages()
            .forEach(m -> actual.add(bytes(m.content()) + "|" + Flags.normalize(m.flags())));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void onlyTheTypesAskedForAreStreamed() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      String alice = accountOf(source, "alice");
      try (ItemStream stream = source.items(alice, EnumSet.of(ItemType.MESSAGE))) {
        while (stream.hasNext()) {
          if (stream.next() instanceof ItemEntry.Decoded d) {
            assertThat(d.item().type()).isEqualTo(ItemType.MESSAGE);
          }
        }
      }
    }
  }

  @Test
  void readingAgainGivesTheSameIdsAndReferences() throws IOException {
    List<Integer> first;
    String ref;
    try (MailSource source = open(dir, mailboxes())) {
      String alice = accountOf(source, "alice");
      first = read(source, alice).messages().stream().map(ReadMessage::id).toList();
      ref = source.accountRef(alice);
      if (mailboxes().size() > 1) {
        assertThat(source.accountRef(accountOf(source, "bob"))).isNotEqualTo(ref);
      }
      assertThat(source.problems(alice)).isEmpty();
    }
    try (MailSource again = reopen()) {
      String alice = accountOf(again, "alice");
      assertThat(read(again, alice).messages().stream().map(ReadMessage::id).toList())
          .isEqualTo(first);
      assertThat(again.accountRef(alice)).isEqualTo(ref);
    }
  }

  /** The same source opened again (what {@link #open} laid out, read anew). */
  protected abstract MailSource reopen() throws IOException;

  private static String bytes(byte[] content) {
    return new String(content, StandardCharsets.ISO_8859_1);
  }
}
