package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.mailrestore.zimbra.Bencode.BencodeException;

/** Zimbra's bencoding, including what Zimbra does that plain bencoding does not. */
class BencodeTest {

  @Test
  void decodesDictionariesListsNumbersAndText() throws BencodeException {
    Object v = Bencode.decode("d1:ci3e2:vti5e3:fldd5:email13:a@example.orge1:ll1:a1:bee");
    assertThat(v).isInstanceOf(Map.class);
    Map<?, ?> m = (Map<?, ?>) v;
    assertThat(m.get("c")).isEqualTo(3L);
    assertThat(m.get("vt")).isEqualTo(5L);
    assertThat(((Map<?, ?>) m.get("fld")).get("email")).isEqualTo("a@example.org");
    assertThat(m.get("l")).isEqualTo(List.of("a", "b"));
  }

  @Test
  void lengthsCountUtf16CodeUnitsNotBytes() throws BencodeException {
    // "é" is 2 bytes in UTF-8 but one char; the emoji is 4 bytes and 2 chars
    String text = "\u00e9t\u00e9 \ud83d\ude00";
    String encoded = Bencode.encode(Map.of("s", text));
    assertThat(encoded).isEqualTo("d1:s" + text.length() + ":" + text + "e");
    assertThat(text.length()).isEqualTo(6);
    assertThat(((Map<?, ?>) Bencode.decode(encoded)).get("s")).isEqualTo(text);
  }

  @Test
  void encodesKeysSortedAndBooleansAndDecimalsAsText() {
    Map<String, Object> m = new TreeMap<>();
    m.put("z", true);
    m.put("a", 1.5);
    m.put("m", 7L);
    assertThat(Bencode.encode(m)).isEqualTo("d1:a3:1.51:mi7e1:z4:truee");
  }

  @Test
  void aLyingLengthTrailingTextOrAMissingEndIsAnErrorWithThePosition() {
    assertThatThrownBy(() -> Bencode.decode("d1:s99:shorte"))
        .isInstanceOf(BencodeException.class)
        .hasMessageContaining("announced")
        .hasMessageContaining("at character");
    assertThatThrownBy(() -> Bencode.decode("d1:ci1eeXYZ"))
        .isInstanceOf(BencodeException.class)
        .hasMessageContaining("after the end");
    assertThatThrownBy(() -> Bencode.decode("d1:ci1e")).isInstanceOf(BencodeException.class);
    assertThatThrownBy(() -> Bencode.decode("i12x3e")).isInstanceOf(BencodeException.class);
    assertThatThrownBy(() -> Bencode.decode("d1:ce")).hasMessageContaining("without its value");
  }

  @Test
  void deepNestingIsRefusedNotAStackOverflow() {
    String deep = "l".repeat(100_000) + "e".repeat(100_000);
    assertThatThrownBy(() -> Bencode.decode(deep)).hasMessageContaining("nested deeper");
  }

  @Test
  void utf8ReadAsLatin1IsRepairedAsZimbraDoes() throws BencodeException {
    String good = Bencode.encode(Map.of("s", "\u00e9t\u00e9"));
    // the corruption: the UTF-8 bytes taken one char each; the declared length no longer fits
    String corrupt = new String(good.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    assertThat(((Map<?, ?>) Bencode.decode(corrupt)).get("s")).isEqualTo("\u00e9t\u00e9");
  }

  @Test
  void errorsNeverQuoteTheContent() {
    assertThatThrownBy(() -> Bencode.decode("d6:secretXe"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    assertThatThrownBy(() -> Bencode.decode("d1:si9secretee"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
  }

  /** Random structures round-trip; random mutations of them fail cleanly or decode. */
  @Test
  void fuzz() {
    Random random = new Random(42);
    for (int round = 0; round < 2000; round++) {
      Object value = randomValue(random, 0);
      String encoded = Bencode.encode(Map.of("v", value));
      try {
        assertThat(Bencode.decode(encoded)).isEqualTo(Map.of("v", value));
      } catch (BencodeException e) {
        throw new AssertionError(encoded, e);
      }
      StringBuilder mutated = new StringBuilder(encoded);
      for (int i = 0; i < 3; i++) {
        int at = random.nextInt(mutated.length());
        switch (random.nextInt(3)) {
          case 0 -> mutated.setCharAt(at, (char) random.nextInt(128));
          case 1 -> mutated.deleteCharAt(at);
          default -> mutated.insert(at, "9999999999");
        }
        if (mutated.isEmpty()) {
          break;
        }
      }
      try {
        Bencode.decode(mutated.toString());
      } catch (BencodeException expected) {
        // a clean refusal is what a broken value gets
      }
    }
  }

  private static Object randomValue(Random random, int depth) {
    int kind = depth > 3 ? random.nextInt(2) : random.nextInt(4);
    return switch (kind) {
      case 0 -> random.nextLong();
      case 1 -> {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
          sb.append(
              random.nextBoolean()
                  ? (char) ('a' + random.nextInt(26))
                  : (char) (0xa0 + random.nextInt(0x2000)));
        }
        yield sb.toString();
      }
      case 2 -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(randomValue(random, depth + 1));
        }
        yield list;
      }
      default -> {
        Map<String, Object> map = new TreeMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          map.put("k" + random.nextInt(100), randomValue(random, depth + 1));
        }
        yield map;
      }
    };
  }
}
