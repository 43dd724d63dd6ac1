package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;

class ItemCodecTest {

  static final Set<ItemType> ALL = EnumSet.allOf(ItemType.class);
  static final BlobDigest DIGEST =
      BlobDigest.ofContent("Subject: x\r\n\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII));

  static Item message(int id) {
    Revision r1 =
        Revision.builder(1, 1000)
            .validTo(2000)
            .uuid("uuid-1")
            .folder(2)
            .flags("u")
            .tags(List.of("work", "urgent"))
            .date(900)
            .blob(22, DIGEST)
            .sender("a@example.org")
            .subject("Hello \"world\" ü")
            .build();
    Revision r2 =
        Revision.builder(2, 2000)
            .validTo(3000)
            .uuid("uuid-1")
            .folder(257)
            .flags("f")
            .date(900)
            .blob(22, DIGEST)
            .sender("a@example.org")
            .subject("Hello \"world\" ü")
            .build();
    return new Item(id, ItemType.MESSAGE, List.of(r1, r2, Revision.tombstone(3, 3000)));
  }

  static byte[] encode(Item item) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = ItemCodec.JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      ItemCodec.encode(g, item);
    }
    return out.toByteArray();
  }

  static Item decode(String json) throws ItemDecodeException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return ItemCodec.decode(bytes, 0, bytes.length, ALL);
  }

  @Test
  void roundTripsEveryField() throws Exception {
    Item mountpoint =
        new Item(
            300,
            ItemType.MOUNTPOINT,
            List.of(
                Revision.builder(1, 5)
                    .uuid("u")
                    .folder(1)
                    .name("Bob's Deals")
                    .date(5)
                    .color(3)
                    .view("message")
                    .mount(new Revision.MountTarget("acct-2", 260))
                    .attrs(Map.of("k", "v"))
                    .build()));
    for (Item item : List.of(message(257), mountpoint)) {
      byte[] bytes = encode(item);
      assertThat(ItemCodec.decode(bytes, 0, bytes.length, ALL)).isEqualTo(item);
    }
  }

  @Test
  void openValidToIsClosedByTheNextRevision() throws Exception {
    Item item =
        decode(
            "{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":10,\"folder\":7},"
                + "{\"validFrom\":20,\"folder\":13}]}");
    assertThat(item.revisions().get(0).validTo()).isEqualTo(20);
    assertThat(item.revisions().get(1).validTo()).isEqualTo(Revision.OPEN);
    assertThat(item.stateAt(15).orElseThrow().folderId()).isEqualTo(7);
    assertThat(item.latest().orElseThrow().folderId()).isEqualTo(13);
  }

  @Test
  void pointInTimeStatesFollowTheRevisions() {
    Item item = message(300);
    assertThat(item.stateAt(999)).isEmpty();
    assertThat(item.stateAt(1000).orElseThrow().folderId()).isEqualTo(2);
    assertThat(item.stateAt(2500).orElseThrow().folderId()).isEqualTo(257);
    assertThat(item.stateAt(3000)).isEmpty();
    assertThat(item.latest()).isEmpty();
    assertThat(item.isDeleted()).isTrue();
  }

  @Test
  void unwantedTypesAreSkippedWithoutReadingTheRest() throws Exception {
    byte[] bytes =
        "{\"id\":5,\"type\":\"message\",\"revisions\":[BROKEN".getBytes(StandardCharsets.UTF_8);
    assertThat(ItemCodec.decode(bytes, 0, bytes.length, EnumSet.of(ItemType.FOLDER))).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "truncated JSON|{\"id\":300,\"type\":\"message\",\"revisions\":[{\"validFrom\":1|malformed JSON",
        "not an object|[1,2]|must be a JSON object",
        "id is a string|{\"id\":\"300\",\"type\":\"contact\",\"revisions\":[]}|field id must be an integer",
        "unknown type|{\"id\":300,\"type\":\"hologram\",\"revisions\":[]}|unknown item type \"hologram\"",
        "no revisions|{\"id\":300,\"type\":\"contact\",\"revisions\":[]}|no revisions",
        "no id|{\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7}]}|no id",
        "revision without validFrom|{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"folder\":7}]}|no validFrom",
        "bad digest|{\"id\":300,\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":2,\"digest\":\"XYZ\"}]}|64 lower-case hex",
        "message without digest|{\"id\":300,\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":2}]}|needs a blob digest",
        "folder name with slash|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a/b\"}]}|contains '/'",
        "folder named ..|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"..\"}]}|reserved",
        "folder name with NUL|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\\u0000b\"}]}|NUL",
        "folder name with control char|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\\u0007b\"}]}|control character",
        "unpaired surrogate|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\\ud800b\"}]}|surrogate",
        "unknown flag|{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7,\"flags\":\"uZ\"}]}|unknown flag 'Z'",
        "out of order|{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":5,\"folder\":7},{\"validFrom\":1,\"folder\":7}]}|not ordered",
        "mountpoint without target|{\"id\":300,\"type\":\"mountpoint\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"m\"}]}|mount.owner",
        "negative colour|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\",\"color\":-4}]}|not a colour number",
        "colour too large|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\",\"color\":70000}]}|not a colour number",
        "view too long|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\",\"view\":\"appointmentsandmore\"}]}|not a view name",
        "negative size|{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a\",\"size\":-5}]}|must not be negative",
        "trailing data|{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7}]} {}|unexpected data",
      })
  void badRecordsFailWithAReason(String caseName, String json, String expected) {
    assertThatThrownBy(() -> decode(json))
        .as(caseName)
        .isInstanceOf(ItemDecodeException.class)
        .hasMessageContaining(expected);
  }

  @Test
  void decodeFailuresKeepWhatIsKnownOfTheItem() {
    assertThatThrownBy(() ->
            decode(
                "{\"id\":300,\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":2}]}"))
        .isInstanceOfSatisfying(
            ItemDecodeException.class,
            e -> {
              assertThat(e.itemId()).isEqualTo(300);
              assertThat(e.type()).isEqualTo(ItemType.MESSAGE);
            });
  }

  @Test
  void invalidUtf8IsRefused() {
    byte[] prefix =
        "{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\""
            .getBytes(StandardCharsets.US_ASCII);
    byte[] suffix = "\"}]}".getBytes(StandardCharsets.US_ASCII);
    byte[] bytes = new byte[prefix.length + 2 + suffix.length];
    System.arraycopy(prefix, 0, bytes, 0, prefix.length);
    bytes[prefix.length] = (byte) 0xC3;
    bytes[prefix.length + 1] = (byte) 0x28; // invalid continuation byte
    System.arraycopy(suffix, 0, bytes, prefix.length + 2, suffix.length);
    assertThatThrownBy(() -> ItemCodec.decode(bytes, 0, bytes.length, ALL))
        .isInstanceOf(ItemDecodeException.class)
        .hasMessageContaining("UTF-8");
  }

  @Test
  void megabyteValuesAreRefused() {
    String huge = "x".repeat(ItemCodec.MAX_STRING_LENGTH + 10);
    assertThatThrownBy(() ->
            decode(
                "{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7,\"subject\":\""
                    + huge
                    + "\"}]}"))
        .isInstanceOf(ItemDecodeException.class)
        .hasMessageContaining("length");
    String longSubject = "y".repeat(TextRules.MAX_SUBJECT_LENGTH + 1);
    assertThatThrownBy(() ->
            decode(
                "{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7,\"subject\":\""
                    + longSubject
                    + "\"}]}"))
        .isInstanceOf(ItemDecodeException.class)
        .hasMessageContaining("subject is");
  }

  @Test
  void flagsConvertToBitsAndBack() {
    assertThat(Flags.toBits("u")).isEqualTo(Flags.UNREAD);
    assertThat(Flags.toBits("sf")).isEqualTo(Flags.FROM_ME | Flags.FLAGGED);
    assertThat(Flags.fromBits(Flags.toBits("ufrs"))).isEqualTo("srfu");
    assertThat(Flags.normalize("uu")).isEqualTo("u");
  }
}
