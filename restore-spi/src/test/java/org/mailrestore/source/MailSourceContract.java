package org.mailrestore.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;

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

  /**
   * The reference: two users, nested and empty folders, CRLF and LF, 8-bit bytes, flags, and a
   * message of 1.5 MB (larger than what a source or a read-back may hold whole per message).
   */
  public static List<Mailbox> reference() {
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
                    ""),
                large("Work/Projects", 1_500_000))),
        new Mailbox("bob", List.of("Archive"), List.of(message("", "Only one", "\r\n", "fr"))));
  }

  /** A message of about {@code size} bytes: lines of base64-like text, LF-ended. */
  private static Message large(String folder, int size) {
    StringBuilder text =
        new StringBuilder(size + 200)
            .append("From: Someone <someone@example.org>\nTo: x@example.org\n")
            .append("Subject: an attachment\nDate: Mon, 14 May 2001 16:39:00 -0700\n\n");
    for (int line = 0; text.length() < size; line++) {
      text.append("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ej")
          .append(String.format(java.util.Locale.ROOT, "%06d", line))
          .append('\n');
    }
    return new Message(folder, text.toString().getBytes(StandardCharsets.US_ASCII), "");
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

  /**
   * The engine reads several accounts at once to learn what to claim: a source read from several
   * threads describes each account as it does read alone.
   */
  @Test
  void accountsReadAtOnceAreTheAccountsReadOneByOne() throws Exception {
    Map<String, Parsed<Account>> atOnce = new ConcurrentHashMap<>();
    try (MailSource source = open(dir, mailboxes());
        ExecutorService threads = Executors.newFixedThreadPool(4)) {
      List<String> ids = source.accountIds();
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        List<String> order = new ArrayList<>(ids);
        Collections.rotate(order, t); // each thread starts with another account
        readers.add(
            threads.submit(() -> {
              start.await();
              for (String id : order) {
                Parsed<Account> read = source.account(id);
                Parsed<Account> first = atOnce.putIfAbsent(id, read);
                assertThat(first == null ? read : first).isEqualTo(read);
              }
              return null;
            }));
      }
      start.countDown();
      for (Future<?> reader : readers) {
        reader.get(30, TimeUnit.SECONDS);
      }
    }
    try (MailSource again = reopen()) {
      for (String id : again.accountIds()) {
        assertThat(atOnce.get(id)).isEqualTo(again.account(id));
      }
      assertThat(atOnce).hasSameSizeAs(again.accountIds());
    }
  }

  @Test
  void foldersComeParentsFirstAndMessagesLiveInThemByteForByte() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      for (Mailbox mailbox : mailboxes()) {
        SourceReading.Read read =
            SourceReading.read(source, SourceReading.accountOf(source, mailbox.user()));
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
        SourceReading.Read read =
            SourceReading.read(source, SourceReading.accountOf(source, mailbox.user()));
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
      String alice = SourceReading.accountOf(source, "alice");
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
      String alice = SourceReading.accountOf(source, "alice");
      first =
          SourceReading.read(source, alice).messages().stream()
              .map(SourceReading.ReadMessage::id)
              .toList();
      ref = source.accountRef(alice);
      if (mailboxes().size() > 1) {
        assertThat(source.accountRef(SourceReading.accountOf(source, "bob"))).isNotEqualTo(ref);
      }
      assertThat(source.problems(alice)).isEmpty();
    }
    try (MailSource again = reopen()) {
      String alice = SourceReading.accountOf(again, "alice");
      assertThat(
              SourceReading.read(again, alice).messages().stream()
                  .map(SourceReading.ReadMessage::id)
                  .toList())
          .isEqualTo(first);
      assertThat(again.accountRef(alice)).isEqualTo(ref);
    }
  }

  /**
   * Lays the mailboxes out with damage the format can carry (a record that does not decode, a
   * message file that cannot be read, an archive cut short) and opens the source; empty when the
   * kind has no damage of its own to lay out (a target read back).
   */
  protected Optional<MailSource> openDamaged(Path root, List<Mailbox> mailboxes)
      throws IOException {
    return Optional.empty();
  }

  /**
   * What cannot be read is reported ({@link Parsed.Failed}, {@link ItemEntry.Undecodable}, {@link
   * SourceProblem}), never thrown, and the rest is read.
   */
  @Test
  void damageIsReportedNotThrown() throws IOException {
    Optional<MailSource> damaged = openDamaged(dir.resolve("damaged"), mailboxes());
    assumeTrue(damaged.isPresent(), "this kind lays out no damage of its own");
    try (MailSource source = damaged.get()) {
      long reported = 0;
      long read = 0;
      for (String id : source.accountIds()) {
        if (source.account(id) instanceof Parsed.Failed<Account>) {
          reported++;
          continue;
        }
        for (Set<ItemType> pass : List.of(ItemType.containers(), ItemType.contents())) {
          try (ItemStream stream = source.items(id, pass)) {
            while (stream.hasNext()) {
              ItemEntry entry = stream.next();
              if (entry instanceof ItemEntry.Undecodable) {
                reported++;
              } else if (readContent(source, (ItemEntry.Decoded) entry)) {
                read++;
              } else {
                reported++;
              }
            }
          }
        }
        reported += source.problems(id).size();
      }
      assertThat(reported).as("the damage is reported").isPositive();
      assertThat(read).as("the rest is read").isPositive();
    }
  }

  /**
   * Reads an entry's content whole, as a restore would; false when it fails as it is read (content
   * cut short or not matching its digest: that item's failure, as a restore reports it).
   */
  private static boolean readContent(MailSource source, ItemEntry.Decoded d) {
    Revision state = d.item().latest().orElse(null);
    if (state == null
        || !d.item().type().hasBlob()
        || (d.passing() == null && state.digest() == null)) {
      return true;
    }
    try (InputStream in =
        d.passing() != null
            ? d.passing().open()
            : source.blobs().openVerified(state.digest(), state.size())) {
      in.transferTo(OutputStream.nullOutputStream());
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Removes the source {@link #open} laid out under {@code root}, as an operator or a failing disk
   * might while a restore reads it; false when the kind's source is not removed under a reader (a
   * target read back), and the test that needs it is skipped.
   */
  protected boolean remove(Path root) throws IOException {
    return false;
  }

  @Test
  void theIdentityStaysWhileTheSourceIsUnchanged() throws IOException {
    try (MailSource source = open(dir, mailboxes())) {
      String before = source.identity();
      assertThat(before).isNotBlank();
      for (String id : source.accountIds()) {
        SourceReading.read(source, id);
      }
      assertThat(source.identity()).isEqualTo(before);
    }
  }

  /**
   * A source removed after it was opened is not read as empty mailboxes: its identity cannot be
   * had, and each account it listed fails to read, or reports what it could not read.
   */
  @Test
  void aSourceRemovedWhileReadIsNotTakenForEmptyMailboxes() throws IOException {
    Path root = dir.resolve("removed");
    try (MailSource source = open(root, mailboxes())) {
      List<String> accounts = source.accountIds();
      assumeTrue(remove(root), "this kind's source is not removed under a reader");
      assertThatThrownBy(source::identity).isInstanceOf(IOException.class);
      for (String id : accounts) {
        assertThat(readsAsMissing(source, id))
            .as("account %s of a removed source reads as missing, not empty", id)
            .isTrue();
      }
    }
  }

  /** True when the account, or its items, fail to read, or what could not be read is reported. */
  private static boolean readsAsMissing(MailSource source, String id) {
    if (source.account(id) instanceof Parsed.Failed<Account>) {
      return true;
    }
    for (Set<ItemType> pass : List.of(ItemType.containers(), ItemType.contents())) {
      try (ItemStream stream = source.items(id, pass)) {
        while (stream.hasNext()) {
          ItemEntry entry = stream.next();
          if (entry instanceof ItemEntry.Undecodable
              || !readContent(source, (ItemEntry.Decoded) entry)) {
            return true;
          }
        }
      } catch (IOException | java.io.UncheckedIOException e) {
        return true;
      }
    }
    return !source.problems(id).isEmpty();
  }

  /** The same source opened again (what {@link #open} laid out, read anew). */
  protected abstract MailSource reopen() throws IOException;

  private static String bytes(byte[] content) {
    return new String(content, StandardCharsets.ISO_8859_1);
  }
}
