package org.mailrestore.dav;

import static org.assertj.core.api.Assertions.assertThat;

import ezvcard.VCard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Zimbra's contact fields to vCard 4.0 and back, by the table in docs/dav-mapping.md. */
class ContactCardTest {

  /** A contact with every field the table maps, and two it does not. */
  static Map<String, String> everyField() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("firstName", "Zoë");
    f.put("lastName", "Ångström-Łukasiewicz");
    f.put("middleName", "Marie");
    f.put("namePrefix", "Dr.");
    f.put("nameSuffix", "PhD");
    f.put("fullName", "Dr. Zoë M. Ångström");
    f.put("nickname", "Zo");
    f.put("company", "Example, Inc.");
    f.put("department", "Research; Mail");
    f.put("jobTitle", "Archivist");
    f.put("email", "zoe@example.org");
    f.put("email2", "zoe.private@example.net");
    f.put("workEmail1", "z.angstrom@work.example");
    f.put("imAddress1", "xmpp:zoe@jabber.example");
    f.put("homePhone", "+1 555 0100");
    f.put("workPhone", "+1 555 0101");
    f.put("mobilePhone", "+1 555 0102");
    f.put("pager", "+1 555 0103");
    f.put("homeFax", "+1 555 0104");
    f.put("workFax", "+1 555 0105");
    f.put("carPhone", "+1 555 0106");
    f.put("otherPhone", "+1 555 0107");
    f.put("companyPhone", "+1 555 0108");
    f.put("assistantPhone", "+1 555 0109");
    f.put("callbackPhone", "+1 555 0110");
    f.put("homeStreet", "1 Rue de l'Église\nApt 2");
    f.put("homeCity", "Zürich");
    f.put("homeState", "ZH");
    f.put("homePostalCode", "8001");
    f.put("homeCountry", "Switzerland");
    f.put("workStreet", "2 Main St");
    f.put("workCity", "Springfield");
    f.put("otherCountry", "日本");
    f.put("homeURL", "https://zoe.example.org/");
    f.put("workURL", "https://work.example/zoe");
    f.put("otherURL", "https://other.example/");
    f.put("birthday", "1980-02-29");
    f.put("anniversary", "--06-15");
    f.put("notes", "Line one;\nline two, with a comma\\ and a backslash");
    f.put("fileAs", "8:Zo");
    f.put("custom1", "a field of the user's own");
    f.put("image", "data:image/png;base64," + PNG);
    return f;
  }

  /** A picture of one pixel, as an archive's contact keeps it in its field image. */
  static final String PNG =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

  @Test
  void everyMappedFieldBecomesItsPropertyAndComesBackTheSame() throws Exception {
    Map<String, String> fields = everyField();
    String text = ContactCard.write(ContactCard.toCard("item-42@mailrestore", fields));
    assertThat(text)
        .startsWith("BEGIN:VCARD\r\nVERSION:4.0")
        .contains("UID:item-42@mailrestore")
        .contains("FN:Dr. Zoë M. Ångström")
        .contains("N:Ångström-Łukasiewicz;Zoë;Marie;Dr.;PhD")
        .contains("NICKNAME:Zo")
        .contains("ORG:Example\\, Inc.;Research\\; Mail")
        .contains("TITLE:Archivist")
        .contains("BDAY:19800229")
        .contains("ANNIVERSARY:--0615")
        .contains("X-MAILRESTORE-OTHER;X-MAILRESTORE-FIELD=custom1:a field of the user's own")
        .contains("X-MAILRESTORE-OTHER;X-MAILRESTORE-FIELD=custom1");
    assertThat(text.replace("\r\n ", "")).contains("PHOTO:data:image/png;base64," + PNG);
    List<VCard> read = ContactCard.read(text);
    assertThat(read).hasSize(1);
    assertThat(CardFields.of(read.get(0))).isEqualTo(fields);
  }

  @Test
  void aCardWithoutAFullNameGetsOneAndDoesNotInventTheField() throws Exception {
    Map<String, String> fields = Map.of("firstName", "Ann", "lastName", "Lee");
    VCard card = ContactCard.read(ContactCard.write(ContactCard.toCard("u1", fields))).get(0);
    assertThat(card.getFormattedName().getValue()).isEqualTo("Ann Lee");
    assertThat(CardFields.of(card)).isEqualTo(fields);
  }

  /** An archive's contact keeps its raw Zimbra metadata for our mailstore; a card does not. */
  @Test
  void theArchivesRawMetadataStaysOutOfTheCard() throws Exception {
    Map<String, String> fields =
        Map.of(
            "firstName",
            "Ann",
            org.mailrestore.zimbra.ZimbraMetadata.ATTR,
            "d3:fldd9:firstName3:Annee");
    String text = ContactCard.write(ContactCard.toCard("u2", fields));
    assertThat(text).doesNotContain("zimbra.metadata").doesNotContain("d3:fld");
    assertThat(CardFields.of(ContactCard.read(text).get(0))).isEqualTo(Map.of("firstName", "Ann"));
  }

  @Test
  void aGroupIsAKindGroupCardWithItsMembers() throws Exception {
    Map<String, String> fields =
        Map.of("type", "group", "nickname", "Team", "dlist", "a@example.org, b@example.org");
    String text = ContactCard.write(ContactCard.toCard("g1", fields));
    assertThat(text)
        .contains("KIND:group")
        .contains("MEMBER:mailto:a@example.org")
        .contains("MEMBER:mailto:b@example.org");
    assertThat(CardFields.of(ContactCard.read(text).get(0))).isEqualTo(fields);
  }

  @Test
  void aListWrittenOtherwiseComesBackAsItWasWritten() throws Exception {
    Map<String, String> fields = Map.of("type", "group", "dlist", "a@example.org,b@example.org");
    String text = ContactCard.write(ContactCard.toCard("g2", fields));
    assertThat(text).contains("MEMBER:mailto:b@example.org");
    assertThat(CardFields.of(ContactCard.read(text).get(0))).isEqualTo(fields);
  }

  @Test
  void aCardFromAnotherClientIsReadByItsTypes() throws Exception {
    String other =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob Roe\r\nN:Roe;Bob;;;\r\n"
            + "EMAIL;TYPE=INTERNET:bob@example.org\r\nEMAIL;TYPE=WORK:roe@work.example\r\n"
            + "TEL;TYPE=CELL:+1 555 0199\r\nTEL;TYPE=WORK,VOICE:+1 555 0198\r\n"
            + "ADR;TYPE=HOME:;;3 Elm St;Shelbyville;;12345;USA\r\n"
            + "URL:https://bob.example/\r\nEND:VCARD\r\n";
    Map<String, String> fields = CardFields.of(ContactCard.read(other).get(0));
    assertThat(fields)
        .containsEntry("firstName", "Bob")
        .containsEntry("lastName", "Roe")
        .containsEntry("fullName", "Bob Roe")
        .containsEntry("email", "bob@example.org")
        .containsEntry("workEmail2", "roe@work.example")
        .containsEntry("mobilePhone", "+1 555 0199")
        .containsEntry("workPhone", "+1 555 0198")
        .containsEntry("homeStreet", "3 Elm St")
        .containsEntry("homeCity", "Shelbyville")
        .containsEntry("homePostalCode", "12345")
        .containsEntry("otherURL", "https://bob.example/");
  }
}
