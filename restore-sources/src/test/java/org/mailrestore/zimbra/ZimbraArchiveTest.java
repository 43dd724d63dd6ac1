package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceProblem;

/**
 * A hand-built archive with every item type Zimbra exports and the forms older versions wrote, read
 * through the source: where each item goes and what it keeps.
 */
class ZimbraArchiveTest {

  static final String ALICE = "alice@example.org";
  static final String OWNER_ID = "8a7b0c1e-2f3d-4e5f-8a9b-0c1d2e3f4a5b";

  @TempDir Path dir;

  static Map<String, Object> meta(int id, int type, String path) {
    return ArchiveBuilder.item(id, type, path);
  }

  /** Everything an archive holds, once. */
  static ArchiveBuilder everything() {
    ArchiveBuilder b = new ArchiveBuilder();
    b.folder(1, "/");
    b.folder(2, "/Inbox", Map.of("vt", 5L));
    b.folder(7, "/Contacts", Map.of("vt", 6L));
    b.folder(10, "/Calendar", Map.of("vt", 11L));
    b.folder(16, "/Briefcase", Map.of("vt", 8L));
    b.folder(12, "/Notebook", Map.of("vt", 7L)); // a reserved id we do not know
    Map<String, Object> acl = new HashMap<>();
    acl.put(
        "g",
        List.of(
            Map.of("g", "1111-bob-id", "n", "bob@example.org", "t", 1L, "r", 3L),
            Map.of("t", 6L, "r", 1L),
            Map.of("g", "carol@elsewhere.org", "t", 7L, "r", 1L, "a", "secret"),
            Map.of("g", "cos-id", "t", 5L, "r", 1L)));
    Map<String, Object> work = new HashMap<>();
    work.put("c", 3L);
    work.put("vt", 5L);
    work.put("aclm", acl);
    b.folder(257, "/Work", work);
    b.folder(258, "/Work/Projects");
    b.folder(259, "/Colored", Map.of("c", 0x01ff8800L));
    Map<String, Object> search = meta(260, 2, "/Unread mail");
    search.put("name", "Unread mail");
    search.put(
        "metadata",
        ArchiveBuilder.bencode(Map.of("q", "is:unread", "t", "message", "s", "dateDesc")));
    b.meta("0000000260-Unread mail.meta", search);
    Map<String, Object> mount = meta(261, 13, "/Shared");
    mount.put("name", "Shared");
    mount.put("metadata", ArchiveBuilder.bencode(Map.of("aid", OWNER_ID, "id", 300L, "vt", 5L)));
    b.meta("0000000261-Shared.meta", mount);
    Map<String, Object> tag = meta(262, 3, "/Tags/work");
    tag.put("name", "work");
    tag.put("metadata", ArchiveBuilder.bencode(Map.of("c", 5L)));
    b.meta("Tags/0000000262-work.meta", tag);
    Map<String, Object> escaped = meta(263, 3, "/Tags/a:b\\c");
    escaped.put("name", "a:b\\c");
    b.meta("Tags/0000000263-a_b_c.meta", escaped);
    Map<String, Object> old = meta(64, 3, "/Tags/old");
    old.put("name", "old");
    b.meta("Tags/0000000064-old.meta", old);
    // messages: escaped tag names; the legacy tag id form; no FlagStr; a chat; implied folders
    b.message(300, "/Inbox", ArchiveBuilder.mail("one", "1"), "uf", "work:a\\:b\\\\c");
    Map<String, Object> legacy = meta(301, 5, "/Work/Projects");
    byte[] m301 = ArchiveBuilder.mail("two", "2");
    legacy.put("size", m301.length);
    legacy.put("TagStr", "64");
    legacy.put("flags", 1 << 2);
    legacy.put("unread", 1);
    b.meta("Work/Projects/0000000301-two.eml.meta", legacy);
    b.entry("Work/Projects/0000000301-two.eml", m301, 5, TarWriter.MODE_UNREAD);
    Map<String, Object> chat = meta(302, 16, "/Chats");
    byte[] c302 = ArchiveBuilder.mail("chat", "hi");
    chat.put("size", c302.length);
    b.meta("Chats/0000000302-chat.chat.meta", chat);
    b.entry("Chats/0000000302-chat.chat", c302, 16, TarWriter.MODE_READ);
    b.message(303, "/Implied/Sub", ArchiveBuilder.mail("three", "3"), "", null);
    // the 500th item of the Inbox spills into Inbox!1; Path still says /Inbox
    Map<String, Object> spilled = meta(304, 5, "/Inbox");
    byte[] m304 = ArchiveBuilder.mail("spilled", "4");
    spilled.put("size", m304.length);
    spilled.put("FlagStr", "");
    b.meta("Inbox!1/0000000304-spilled.eml.meta", spilled);
    b.entry("Inbox!1/0000000304-spilled.eml", m304, 5, TarWriter.MODE_READ);
    // a contact: fields in the metadata, no content
    Map<String, Object> contact = meta(310, 6, "/Contacts");
    contact.put(
        "metadata",
        ArchiveBuilder.bencode(
            Map.of("fld", Map.of("firstName", "Ann", "lastName", "Lee", "email", "ann@x.org"))));
    b.meta("Contacts/Lee, Ann.meta", contact);
    // contacts with a picture: one carried, one too large; their content is a MIME message
    b.contactWithPicture(
        311,
        "Contacts/Lee, Bo",
        Map.of("firstName", "Pic311"),
        "picture".getBytes(StandardCharsets.US_ASCII));
    b.contactWithPicture(
        312,
        "Contacts/Lee, Cy",
        Map.of("firstName", "Pic312"),
        new byte[ContactPicture.MAX_BYTES + 1]);
    // appointments: one with its MIME content, one with its invites only in the metadata
    byte[] appt =
        ("Content-Type: text/calendar\r\n\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    Map<String, Object> a320 = meta(320, 11, "/Calendar");
    a320.put("size", appt.length);
    a320.put("subject", "Meeting");
    a320.put("metadata", ArchiveBuilder.bencode(Map.of("u", "uid-320", "inv", List.of())));
    b.meta("Calendar/0000000320-Meeting.appt.meta", a320);
    b.entry("Calendar/0000000320-Meeting.appt", appt, 11, TarWriter.MODE_READ);
    Map<String, Object> a321 = meta(321, 11, "/Calendar");
    a321.put("metadata", ArchiveBuilder.bencode(Map.of("u", "uid-321")));
    b.meta("Calendar/0000000321-Lunch.appt.meta", a321);
    // a document in two versions: the newest is kept
    for (long version : new long[] {1, 2}) {
      byte[] doc = ("version " + version).getBytes(StandardCharsets.US_ASCII);
      Map<String, Object> d = meta(330, 8, "/Briefcase/report.txt");
      d.put("name", "report.txt");
      d.put("size", doc.length);
      d.put("metadata", ArchiveBuilder.bencode(Map.of("ver", version, "ct", "text/plain")));
      String name = "Briefcase/report-" + String.format("%05d", version) + ".txt";
      b.meta(name + ".meta", d);
      b.entry(name, doc, 8, TarWriter.MODE_READ);
    }
    // a note: nothing of ours holds it; a conversation: never in a real archive, derived anyway
    b.meta("0000000340-note.note.meta", meta(340, 9, "/Inbox"));
    b.meta("0000000341-conv.meta", meta(341, 4, "/Inbox"));
    return b;
  }

  MailSource open(Path location) throws IOException {
    return ZimbraTgzKind.local(location)
        .open(
            new SourceContext(
                S3Profiles.none(new SimpleMeterRegistry()),
                StorageLimits.DEFAULT,
                new SimpleMeterRegistry(),
                null));
  }

  record Read(
      Map<Integer, Item> items, Map<Integer, byte[]> contents, List<ItemEntry.Undecodable> bad) {}

  static Read read(MailSource source, String account) throws IOException {
    Map<Integer, Item> items = new HashMap<>();
    Map<Integer, byte[]> contents = new HashMap<>();
    List<ItemEntry.Undecodable> bad = new ArrayList<>();
    try (ItemStream stream = source.items(account, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        switch (stream.next()) {
          case ItemEntry.Decoded d -> {
            assertThat(items.put(d.item().id(), d.item())).as("id %d once", d.item().id()).isNull();
            if (d.passing() != null) {
              try (InputStream in = d.passing().open()) {
                contents.put(d.item().id(), in.readAllBytes());
              }
            }
          }
          case ItemEntry.Undecodable u -> bad.add(u);
        }
      }
    }
    return new Read(items, contents, bad);
  }

  static Revision state(Read read, int id) {
    assertThat(read.items()).as("item %d", id).containsKey(id);
    return read.items().get(id).latest().orElseThrow();
  }

  @Test
  void everyItemTypeGoesWhereItsPathSaysWithWhatItKeeps() throws IOException {
    Path file = everything().write(dir.resolve(ALICE + ".tgz"));
    Files.writeString(dir.resolve("zimbra-ids.txt"), OWNER_ID + " owner@example.org\n");
    try (MailSource source = open(file)) {
      assertThat(source.accountIds()).containsExactly(ALICE);
      Read read = read(source, ALICE);
      assertThat(read.bad()).isEmpty();
      // folders: system ones are the target's; user ones keep their ids; implied ones get new ids
      assertThat(read.items()).doesNotContainKeys(1, 2, 7, 10, 16);
      Revision work = state(read, 257);
      assertThat(work.folderId()).isEqualTo(SystemFolder.USER_ROOT.id());
      assertThat(work.color()).isEqualTo(3);
      assertThat(work.view()).isEqualTo("message");
      assertThat(state(read, 258).folderId()).isEqualTo(257);
      assertThat(state(read, 259).attrs()).containsEntry("rgb", "#ff8800");
      assertThat(state(read, 259).color()).isEqualTo(-1);
      Item notebook =
          read.items().values().stream()
              .filter(i -> "Notebook".equals(i.latest().orElseThrow().name()))
              .findFirst()
              .orElseThrow();
      assertThat(notebook.id())
          .as("an unknown reserved id becomes a user folder")
          .isGreaterThan(341);
      Revision search = state(read, 260);
      assertThat(read.items().get(260).type()).isEqualTo(ItemType.SEARCH_FOLDER);
      assertThat(search.attrs())
          .containsEntry("query", "is:unread")
          .containsEntry("types", "message")
          .containsEntry("sort", "dateDesc");
      Revision shared = state(read, 261);
      assertThat(shared.mount()).isEqualTo(new Revision.MountTarget("owner@example.org", 300));
      assertThat(state(read, 262).name()).isEqualTo("work");
      assertThat(state(read, 262).color()).isEqualTo(5);
      // messages
      Revision one = state(read, 300);
      assertThat(one.folderId()).isEqualTo(SystemFolder.INBOX.id());
      assertThat(one.flags()).isEqualTo("fu");
      assertThat(one.tags()).containsExactly("work", "a:b\\c");
      assertThat(one.digest()).isEqualTo(BlobDigest.ofContent(ArchiveBuilder.mail("one", "1")));
      assertThat(read.contents().get(300)).isEqualTo(ArchiveBuilder.mail("one", "1"));
      Revision two = state(read, 301);
      assertThat(two.folderId()).isEqualTo(258);
      assertThat(two.tags()).as("a legacy tag id, named by the tag item").containsExactly("old");
      assertThat(two.flags()).as("flags from the bit mask and unread").isEqualTo("ru");
      assertThat(two.digest()).as("no blob_digest: computed as it passes").isNull();
      assertThat(read.items().get(302).type())
          .as("a chat is a message")
          .isEqualTo(ItemType.MESSAGE);
      assertThat(state(read, 302).folderId()).isEqualTo(SystemFolder.CHATS.id());
      Revision three = state(read, 303);
      Revision sub = read.items().get(three.folderId()).latest().orElseThrow();
      assertThat(sub.name()).isEqualTo("Sub");
      assertThat(read.items().get(sub.folderId()).latest().orElseThrow().name())
          .isEqualTo("Implied");
      assertThat(state(read, 304).folderId()).as("Inbox!1 is the Inbox").isEqualTo(2);
      // the rest
      assertThat(state(read, 310).attrs())
          .containsEntry("firstName", "Ann")
          .containsEntry("email", "ann@x.org");
      assertThat(state(read, 311).attrs())
          .containsEntry("firstName", "Pic311")
          .containsEntry(
              "image",
              "data:image/png;base64,"
                  + java.util.Base64.getEncoder()
                      .encodeToString("picture".getBytes(StandardCharsets.US_ASCII)));
      assertThat(state(read, 312).attrs())
          .as("a picture over the bound is left out, the contact is not")
          .containsEntry("firstName", "Pic312")
          .doesNotContainKey("image");
      assertThat(state(read, 320).attrs()).containsKey("zimbra.metadata");
      assertThat(read.contents().get(320)).isEqualTo(appointmentBytes());
      assertThat(state(read, 321).digest()).as("an appointment without content").isNull();
      assertThat(read.contents()).doesNotContainKey(321);
      assertThat(state(read, 330).name()).isEqualTo("report.txt");
      assertThat(read.contents().get(330))
          .isEqualTo("version 2".getBytes(StandardCharsets.US_ASCII));
      assertThat(read.items()).doesNotContainKeys(340, 341);

      List<Grant> grants = ((Parsed.Ok<List<Grant>>) source.grants(ALICE)).value();
      assertThat(grants)
          .contains(
              new Grant(257, GranteeType.USER, "1111-bob-id", "bob@example.org", "rw"),
              new Grant(257, GranteeType.PUBLIC, null, null, "r"),
              new Grant(257, GranteeType.GUEST, "carol@elsewhere.org", "carol@elsewhere.org", "r"));
      assertThat(source.problems(ALICE))
          .extracting(SourceProblem::detail)
          .anySatisfy(d -> assertThat(d).contains("older versions of documents"))
          .anySatisfy(d -> assertThat(d).contains("contact pictures over 512 KiB"))
          .anySatisfy(d -> assertThat(d).contains("notes"))
          .anySatisfy(d -> assertThat(d).contains("class of service"))
          .anySatisfy(d -> assertThat(d).contains("passwords of guest shares"))
          .allSatisfy(d -> assertThat(d).doesNotContain("secret"));
      assertThat(source.problems(ALICE)).allMatch(SourceProblem::notCarried);
    }
  }

  static byte[] appointmentBytes() {
    return ("Content-Type: text/calendar\r\n\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void withoutTheIdsFileMountpointsAreLeftOutAndSaidSo() throws IOException {
    Path file = everything().write(dir.resolve(ALICE + ".tgz"));
    try (MailSource source = open(file)) {
      Read read = read(source, ALICE);
      assertThat(read.items()).doesNotContainKey(261);
      assertThat(source.problems(ALICE))
          .anySatisfy(p -> assertThat(p.detail()).contains("mountpoints").contains("ids file"));
    }
  }

  @Test
  void anArchiveWithoutMetaRestoresItsMessagesByDirectory() throws IOException {
    byte[] m1 = ArchiveBuilder.mail("top", "t");
    byte[] m2 = ArchiveBuilder.mail("deep", "d");
    Path file =
        new ArchiveBuilder()
            .entry("0000000257-top.eml", m1, 5, TarWriter.MODE_UNREAD)
            .entry("Work!1/0000000258-deep.eml", m2, 5, TarWriter.MODE_READ)
            .entry("Contacts/x.vcf", "BEGIN:VCARD".getBytes(StandardCharsets.US_ASCII))
            .write(dir.resolve(ALICE + ".tgz"));
    try (MailSource source = open(file)) {
      Read read = read(source, ALICE);
      List<Revision> messages = new ArrayList<>();
      Map<Integer, Revision> folders = new HashMap<>();
      read.items()
          .values()
          .forEach(i -> {
            if (i.type() == ItemType.MESSAGE) {
              messages.add(i.latest().orElseThrow());
            } else {
              folders.put(i.id(), i.latest().orElseThrow());
            }
          });
      assertThat(messages).hasSize(2);
      assertThat(messages)
          .anySatisfy(m -> {
            assertThat(m.subject()).isEqualTo("top");
            assertThat(m.folderId()).isEqualTo(SystemFolder.INBOX.id());
            assertThat(m.flags()).isEqualTo("u");
            assertThat(m.date()).isEqualTo(1_600_000_000_000L);
          })
          .anySatisfy(m -> {
            assertThat(m.subject()).isEqualTo("deep");
            assertThat(folders.get(m.folderId()).name()).isEqualTo("Work");
          });
      assertThat(source.problems(ALICE))
          .anySatisfy(p -> assertThat(p.detail()).contains("not messages"));
    }
  }

  @Test
  void aDirectoryNeedsAddressesAsNamesAndASingleFileTakesTheSelectedAccount() throws IOException {
    Path archives = dir.resolve("archives");
    everything().write(archives.resolve(ALICE + ".tgz"));
    everything().write(archives.resolve("bob@example.org.tar.gz"));
    Files.writeString(archives.resolve("README"), "not an archive");
    try (MailSource source = open(archives)) {
      assertThat(source.accountIds()).containsExactly(ALICE, "bob@example.org");
    }
    everything().write(archives.resolve("backup-2025-01-01.tgz"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(archives))
        .hasMessageContaining("backup-2025-01-01.tgz")
        .hasMessageContaining("<address>.tgz");
    Path single = everything().write(dir.resolve("export.tgz"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> open(single))
        .hasMessageContaining("--account");
    try (MailSource source =
        ZimbraTgzKind.local(single)
            .open(
                new SourceContext(
                    S3Profiles.none(new SimpleMeterRegistry()),
                    StorageLimits.DEFAULT,
                    new SimpleMeterRegistry(),
                    Set.of("Carol@Example.org")))) {
      assertThat(source.accountIds()).containsExactly("carol@example.org");
    }
  }
}
