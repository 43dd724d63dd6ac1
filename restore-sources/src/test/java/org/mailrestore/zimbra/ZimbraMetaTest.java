package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.mailrestore.zimbra.ZimbraMeta.MetaException;

/** A {@code .meta} entry as Zimbra writes it, and as it should not be. */
class ZimbraMetaTest {

  private static ZimbraMeta parse(String json) throws MetaException {
    return ZimbraMeta.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void everyFieldOfAMessageIsRead() throws Exception {
    ZimbraMeta m =
        parse(
            """
            {"id":300,"uuid":"u-1","type":5,"parent_id":-1,"folder_id":2,"index_id":300,
             "imap_id":301,"date":1600000000,"size":1234,"volume_id":1,
             "blob_digest":"abc","unread":1,"flags":16,"subject":"Hello \\u00e9","name":"n",
             "metadata":"d1:fi1ee","mod_metadata":7,"change_date":1600000001,"mod_content":8,
             "sender":"a@example.org","ExtraStr":"x","FlagStr":"uf","Path":"/Inbox",
             "TagStr":":a:b","TagNames":"a:b","tags":64,"Ver":10,
             "unknown":{"nested":[1,2,{"deep":true}]},"other":[null]}
            """);
    assertThat(m)
        .isEqualTo(
            new ZimbraMeta(
                300,
                "u-1",
                5,
                -1,
                2,
                301,
                1600000000L,
                1234L,
                "abc",
                1,
                16,
                "Hello é",
                "n",
                "d1:fi1ee",
                7,
                1600000001L,
                8,
                "a@example.org",
                "x",
                "uf",
                "/Inbox",
                ":a:b",
                "a:b",
                64L,
                10));
  }

  @Test
  void absentFieldsAreEmptyAndNumbersWrittenAsTextAreNumbers() throws Exception {
    ZimbraMeta m =
        parse("{\"id\":\"42\",\"type\":\" 5 \",\"Ver\":\"9\",\"size\":null,\"name\":\"\"}");
    assertThat(m.id()).isEqualTo(42);
    assertThat(m.type()).isEqualTo(5);
    assertThat(m.version()).isEqualTo(9);
    assertThat(m.size()).isZero();
    assertThat(m.name()).as("empty text is absent").isNull();
    assertThat(m.subject()).isNull();
    assertThat(m.flagString()).as("very old archives have none").isNull();
    assertThat(m.legacyTags()).isNull();
  }

  @Test
  void textFieldsHoldingOtherJsonKeepItsText() throws Exception {
    ZimbraMeta m =
        parse(
            "{\"id\":1,\"type\":5,\"Ver\":10,\"subject\":123,\"name\":true,"
                + "\"sender\":{\"a\":[1,\"b\"]},\"FlagStr\":7,\"tags\":\"64\"}");
    assertThat(m.subject()).isEqualTo("123");
    assertThat(m.name()).isEqualTo("true");
    assertThat(m.sender()).isEqualTo("{\"a\":[1,\"b\"]}");
    assertThat(m.flagString()).isEqualTo("7");
    assertThat(m.legacyTags()).as("only a number is the legacy mask").isNull();
  }

  @Test
  void aFlagStringOfNullIsEmptyAndTheLastOfTwoEqualKeysCounts() throws Exception {
    ZimbraMeta m = parse("{\"id\":1,\"id\":2,\"type\":5,\"Ver\":10,\"FlagStr\":null}");
    assertThat(m.id()).isEqualTo(2);
    assertThat(m.flagString()).isEmpty();
  }

  @Test
  void whatIsNotAWholeNumberIsRefusedByName() {
    assertThatThrownBy(() -> parse("{\"id\":1,\"type\":5,\"Ver\":10,\"size\":1.5}"))
        .isInstanceOf(MetaException.class)
        .hasMessage("the .meta entry's \"size\" is not a whole number");
    assertThatThrownBy(() -> parse("{\"id\":99999999999999999999999,\"type\":5,\"Ver\":10}"))
        .hasMessage("the .meta entry's \"id\" is not a whole number");
    assertThatThrownBy(() -> parse("{\"id\":\"x\",\"type\":5,\"Ver\":10}"))
        .hasMessage("the .meta entry's \"id\" is not a whole number");
    assertThatThrownBy(() -> parse("{\"id\":[1],\"type\":5,\"Ver\":10}"))
        .hasMessage("the .meta entry's \"id\" is not a whole number");
  }

  @Test
  void requiredFieldsAndTheVersionAreChecked() {
    assertThatThrownBy(() -> parse("{\"type\":5,\"Ver\":10}"))
        .hasMessage("the .meta entry has no \"id\"");
    assertThatThrownBy(() -> parse("{\"id\":1,\"type\":null,\"Ver\":10}"))
        .hasMessage("the .meta entry has no \"type\"");
    assertThatThrownBy(() -> parse("{\"id\":1,\"type\":5}"))
        .hasMessage("the .meta entry has no \"Ver\"");
    assertThatThrownBy(() -> parse("{\"id\":1,\"type\":5,\"Ver\":11}"))
        .hasMessageStartingWith("metadata version 11 is newer than the 10 this reader knows");
  }

  @Test
  void whatIsNotAJsonObjectIsRefusedWithoutQuotingIt() {
    assertThatThrownBy(() -> parse("[1,2]")).hasMessage("the .meta entry is not a JSON object");
    assertThatThrownBy(() -> parse("\"secret\""))
        .hasMessage("the .meta entry is not a JSON object");
    assertThatThrownBy(() -> parse("")).hasMessage("the .meta entry is not a JSON object");
    assertThatThrownBy(() -> parse("{\"id\":1,\"subject\":\"secret"))
        .hasMessageStartingWith("the .meta entry is not valid JSON (line 1, column ")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> parse("{\"id\":1,\"type\":5,\"Ver\":10}\n{\"secret\":1}"))
        .hasMessageStartingWith("the .meta entry is not valid JSON (line 2, column ")
        .hasMessageNotContaining("secret");
  }
}
