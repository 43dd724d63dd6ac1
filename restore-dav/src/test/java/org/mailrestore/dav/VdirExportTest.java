package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import biweekly.ICalendar;
import ezvcard.VCard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * A generated backup's contacts, appointments and tasks written out as a vdir: a file per item in a
 * directory per folder, each card's fields those the mapping gives, each calendar object the item's
 * UID with the components of its type, and the folders' names beside them.
 */
class VdirExportTest {

  @TempDir Path dir;

  @Test
  void everyContactAppointmentAndTaskBecomesAFileOfItsFolder() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withSeed(39).withAccounts(2).withItemsPerAccount(400), backup);
    Path out = dir.resolve("vdir");
    try (BackupReader source = BackupReader.open(new LocalBackupStorage(backup))) {
      ExportFormat vdir = ExportFormat.installed().require("vdir");
      List<String> ids = source.accountIds();
      ExportReport report = vdir.export(source, ids, out);
      assertThat(report.problems()).isEmpty();

      long expected = 0;
      for (String id : ids) {
        Account account = ((Parsed.Ok<Account>) source.account(id)).value();
        Map<String, Path> files = files(out.resolve(account.name()));
        try (ItemStream items =
            source.items(id, EnumSet.of(ItemType.CONTACT, ItemType.APPOINTMENT, ItemType.TASK))) {
          while (items.hasNext()) {
            if (!(items.next() instanceof ItemEntry.Decoded d) || d.item().latest().isEmpty()) {
              continue;
            }
            expected++;
            Item item = d.item();
            Revision state = item.latest().get();
            String uid = DavResource.itemUid(account.name(), item.id(), state);
            if (item.type() == ItemType.CONTACT) {
              Path file = files.get(DavResource.nameOf(uid, ".vcf"));
              assertThat(file).as("contact %d", item.id()).isNotNull();
              VCard card = ContactCard.read(Files.readString(file)).get(0);
              assertThat(CardFields.of(card))
                  .isEqualTo(CardFields.of(ContactCard.toCard(uid, state.attrs())));
              assertThat(DavResource.tagsOf(ItemType.CONTACT, Files.readString(file)))
                  .isEqualTo(state.tags());
            } else {
              List<Path> named =
                  files.values().stream().filter(f -> f.toString().endsWith(".ics")).toList();
              boolean found = false;
              for (Path f : named) {
                ICalendar c = CalendarObject.read(Files.readString(f)).get(0);
                if (state.subject() != null
                    && Files.readString(f).contains("SUMMARY:" + state.subject())) {
                  found = true;
                  assertThat(item.type() == ItemType.TASK ? c.getTodos() : c.getEvents())
                      .isNotEmpty();
                }
              }
              assertThat(found).as("%s %d", item.type(), item.id()).isTrue();
            }
          }
        }
        assertThat(files).hasSizeGreaterThan(0);
        assertThat(Files.readString(out.resolve(account.name()).resolve("contacts/displayname")))
            .isEqualTo("Contacts");
      }
      assertThat(report.items()).isEqualTo(expected).isPositive();
      assertThat(report.skippedItems()).as("messages and documents").isPositive();
    }
  }

  /**
   * The vdir read as a source gives back what it was made from: each contact's fields and tags by
   * the mapping, each appointment's and task's UID and type, in folders of the same names.
   */
  @Test
  void aVdirReadsBackAsTheItemsItWasMadeFrom() throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withSeed(7).withAccounts(2).withItemsPerAccount(400), backup);
    Path out = dir.resolve("vdir");
    try (BackupReader source = BackupReader.open(new LocalBackupStorage(backup))) {
      ExportFormat.installed().require("vdir").export(source, source.accountIds(), out);
      try (MailSource vdir =
          new VdirSource(out, null, org.mailrestore.blob.PathFence.NONE, 1L << 30)) {
        for (String id : source.accountIds()) {
          Account account = ((Parsed.Ok<Account>) source.account(id)).value();
          Map<String, Revision> contacts = new HashMap<>();
          Map<String, ItemType> events = new HashMap<>();
          for (Item item : latest(source, id)) {
            Revision state = item.latest().get();
            String uid = DavResource.itemUid(account.name(), item.id(), state);
            if (item.type() == ItemType.CONTACT) {
              contacts.put(uid, state);
            } else {
              byte[] content;
              try (var in = source.blobs().openVerified(state.digest(), state.size())) {
                content = in.readAllBytes();
              }
              ICalendar c =
                  CalendarObject.resource(CalendarObject.calendarText(content), item.type(), uid);
              events.put(CalendarObject.uid(c), item.type());
            }
          }
          Map<String, ItemType> eventsBack = new HashMap<>();
          int contactsBack = 0;
          try (ItemStream items = vdir.items(account.name(), ItemType.contents())) {
            while (items.hasNext()) {
              ItemEntry e = items.next();
              assertThat(e).isInstanceOf(ItemEntry.Decoded.class);
              ItemEntry.Decoded d = (ItemEntry.Decoded) e;
              Revision back = d.item().latest().get();
              if (d.item().type() == ItemType.CONTACT) {
                Revision original = contacts.get(back.uuid());
                assertThat(original).as("contact %s", back.uuid()).isNotNull();
                assertThat(back.attrs())
                    .isEqualTo(CardFields.of(ContactCard.toCard(back.uuid(), original.attrs())));
                assertThat(back.tags()).isEqualTo(original.tags());
                if (original.folderId() < 256) {
                  assertThat(back.folderId()).as("a system folder").isEqualTo(original.folderId());
                } else {
                  assertThat(back.folderId()).as("a folder of its own").isGreaterThanOrEqualTo(256);
                }
                contactsBack++;
              } else {
                byte[] bytes;
                try (var in = d.passing().open()) {
                  bytes = in.readAllBytes();
                }
                String uid =
                    CalendarObject.uid(
                        CalendarObject.read(
                                new String(bytes, java.nio.charset.StandardCharsets.UTF_8))
                            .get(0));
                eventsBack.put(uid, d.item().type());
              }
            }
          }
          assertThat(contactsBack).isEqualTo(contacts.size()).isPositive();
          assertThat(eventsBack).isEqualTo(events).isNotEmpty();
        }
      }
    }
  }

  /**
   * A card in the 8-bit charset of an old export is read as mail clients read it, not as U+FFFD.
   */
  @Test
  void aCardNotInUtf8IsReadInWindows1252() throws Exception {
    Path contacts = dir.resolve("old/ann@example.org/contacts");
    java.nio.file.Files.createDirectories(contacts);
    java.nio.file.Files.write(
        contacts.resolve("latin.vcf"),
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:latin-1\r\nN:\u00d1and\u00fa;Zo\u00eb;;;\r\nFN:Zo\u00eb \u00d1and\u00fa\r\nEND:VCARD\r\n"
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    java.nio.file.Files.write(
        contacts.resolve("utf8.vcf"),
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:utf-8\r\nN:M\u00fcller;J\u00fcrgen;;;\r\nFN:J\u00fcrgen M\u00fcller\r\nEND:VCARD\r\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Map<String, Map<String, String>> read = new HashMap<>();
    try (MailSource vdir =
            new VdirSource(
                dir.resolve("old"), null, org.mailrestore.blob.PathFence.NONE, 1L << 30);
        ItemStream items = vdir.items("ann@example.org", ItemType.contents())) {
      while (items.hasNext()) {
        Revision r = ((ItemEntry.Decoded) items.next()).item().latest().get();
        read.put(r.uuid(), r.attrs());
      }
    }
    assertThat(read.get("latin-1")).containsEntry("fullName", "Zo\u00eb \u00d1and\u00fa");
    assertThat(read.get("utf-8")).containsEntry("fullName", "J\u00fcrgen M\u00fcller");
  }

  private static List<Item> latest(BackupReader source, String accountId) throws Exception {
    List<Item> items = new ArrayList<>();
    try (ItemStream stream =
        source.items(
            accountId, EnumSet.of(ItemType.CONTACT, ItemType.APPOINTMENT, ItemType.TASK))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded d && d.item().latest().isPresent()) {
          items.add(d.item());
        }
      }
    }
    return items;
  }

  /** The item files under an account's directory, by file name. */
  private static Map<String, Path> files(Path home) throws Exception {
    Map<String, Path> files = new HashMap<>();
    List<Path> all = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(home)) {
      walk.filter(f -> f.toString().endsWith(".vcf") || f.toString().endsWith(".ics"))
          .forEach(all::add);
    }
    for (Path f : all) {
      assertThat(files.put(f.getFileName().toString(), f)).as("one file per name").isNull();
    }
    return files;
  }
}
