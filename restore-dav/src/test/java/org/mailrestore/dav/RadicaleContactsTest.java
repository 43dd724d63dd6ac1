package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mailrestore.testkit.RadicaleServer;

/**
 * Contacts into a real Radicale (Debian's, started by the test in a directory of its own), written
 * by an administrator into a user's address book as its rights file allows: every mapped field read
 * back the same, a second run adds nothing, and the server's own words come back for a refusal.
 */
class RadicaleContactsTest {

  private static RadicaleServer radicale;
  private static DavClient admin;

  @BeforeAll
  static void start() throws Exception {
    radicale = TestRadicale.server();
    admin = TestRadicale.admin();
  }

  private static URI addressBook(String user) throws Exception {
    URI principal = TestRadicale.principal(admin, user);
    URI book = principal.resolve("contacts-" + UUID.randomUUID() + "/");
    DavClient.Answer made = admin.makeAddressBook(book, "Contacts");
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    return book;
  }

  private static List<Map<String, String>> contacts() {
    List<Map<String, String>> contacts = new ArrayList<>();
    Map<String, String> every = ContactCardTest.everyField();
    every.remove("image"); // Radicale cuts a picture: aPictureIsCutByRadicale
    contacts.add(every);
    for (int i = 0; i < 20; i++) {
      Map<String, String> c = new HashMap<>();
      c.put("firstName", "First" + i);
      c.put("lastName", "Last" + i);
      c.put("email", "user" + i + "@example.org");
      contacts.add(c);
    }
    contacts.add(Map.of("type", "group", "nickname", "Team", "dlist", "a@x.example, b@x.example"));
    return contacts;
  }

  /** Writes each contact as the card of item {@code i}; how many were created. */
  private static int restore(URI book, List<Map<String, String>> contacts) throws Exception {
    int created = 0;
    for (int i = 0; i < contacts.size(); i++) {
      String uid = "mailrestore-test-" + i;
      DavClient.Answer a =
          admin.put(
              book.resolve(uid + ".vcf"),
              ContactCard.write(ContactCard.toCard(uid, contacts.get(i))),
              "text/vcard; charset=utf-8",
              true);
      assertThat(a.status()).as(a.body()).isIn(201, 204, 412);
      if (a.status() != 412) {
        created++;
      }
    }
    return created;
  }

  @Test
  void everyContactIsReadBackWithTheSameFieldsAndARerunAddsNothing() throws Exception {
    URI book = addressBook("alice@example.org");
    List<Map<String, String>> contacts = contacts();
    assertThat(restore(book, contacts)).isEqualTo(contacts.size());
    assertThat(restore(book, contacts)).as("a re-run").isZero();

    List<DavClient.Resource> read = admin.cards(book);
    assertThat(read).hasSize(contacts.size());
    Map<String, Map<String, String>> byUid = new HashMap<>();
    for (DavClient.Resource r : read) {
      var card = ContactCard.read(r.data()).get(0);
      byUid.put(card.getUid().getValue(), CardFields.of(card));
      assertThat(r.etag()).isNotBlank();
    }
    for (int i = 0; i < contacts.size(); i++) {
      assertThat(byUid.get("mailrestore-test-" + i)).isEqualTo(contacts.get(i));
    }
  }

  /**
   * Radicale (its parser, vobject, reads vCard 4.0 as 3.0) cuts a {@code PHOTO} written as RFC 6350
   * writes it, a {@code data:} URI, at its comma: the picture is lost on the server, and what
   * verify reads back differs, so verify reports it (docs/dav-target.md). Pinned here: should
   * Radicale keep pictures one day, this fails and the docs change.
   */
  @Test
  void aPictureIsCutByRadicale() throws Exception {
    URI book = addressBook("paula@example.org");
    Map<String, String> fields =
        Map.of("firstName", "Paula", "image", "data:image/png;base64," + ContactCardTest.PNG);
    assertThat(restore(book, List.of(fields))).isEqualTo(1);
    var card = ContactCard.read(admin.cards(book).get(0).data()).get(0);
    assertThat(CardFields.of(card))
        .containsEntry("firstName", "Paula")
        .containsEntry("image", "data:image/png;base64");
  }

  /**
   * A real client, vdirsyncer, reads the address book into a vdir: each card parses and matches.
   */
  @Test
  void vdirsyncerReadsTheRestoredCardsBack(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    Assumptions.assumeTrue(
        java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/bin/vdirsyncer")),
        "vdirsyncer is not installed: .ci/run does");
    URI book = addressBook("carol@example.org");
    List<Map<String, String>> contacts = contacts();
    restore(book, contacts);
    java.nio.file.Path vdir = java.nio.file.Files.createDirectories(dir.resolve("vdir"));
    java.nio.file.Path config = dir.resolve("config");
    java.nio.file.Files.writeString(
        config,
        """
        [general]
        status_path = "%1$s/status/"

        [pair contacts]
        a = "local"
        b = "remote"
        collections = null

        [storage local]
        type = "filesystem"
        path = "%2$s/"
        fileext = ".vcf"

        [storage remote]
        type = "carddav"
        url = "%3$s"
        username = "%4$s"
        password = "%5$s"
        """
            .formatted(dir, vdir, book, RadicaleServer.ADMIN, RadicaleServer.ADMIN_PASSWORD));
    for (String command : List.of("discover", "sync")) {
      Process p =
          new ProcessBuilder("/usr/bin/vdirsyncer", "-c", config.toString(), command, "contacts")
              .redirectErrorStream(true)
              .start();
      p.getOutputStream().close();
      String out =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(p.waitFor()).as("vdirsyncer %s: %s", command, out).isZero();
    }
    Map<String, Map<String, String>> byUid = new HashMap<>();
    try (var files = java.nio.file.Files.list(vdir)) {
      for (java.nio.file.Path f : files.toList()) {
        var card = ContactCard.read(java.nio.file.Files.readString(f)).get(0);
        byUid.put(card.getUid().getValue(), CardFields.of(card));
      }
    }
    assertThat(byUid).hasSize(contacts.size());
    for (int i = 0; i < contacts.size(); i++) {
      assertThat(byUid.get("mailrestore-test-" + i)).isEqualTo(contacts.get(i));
    }
  }

  @Test
  void aUserWithoutRightsIsRefusedWithTheServersWords() throws Exception {
    URI book = addressBook("bob@example.org");
    String password = "pw-" + UUID.randomUUID();
    radicale.addUser("mallory@example.org", password);
    DavClient mallory = new DavClient(HttpClient.newHttpClient(), "mallory@example.org", password);
    DavClient.Answer a =
        mallory.put(
            book.resolve("x.vcf"),
            ContactCard.write(ContactCard.toCard("x", Map.of("firstName", "X"))),
            "text/vcard; charset=utf-8",
            true);
    assertThat(a.status()).isEqualTo(403);
    assertThat(admin.cards(book)).isEmpty();
  }
}
