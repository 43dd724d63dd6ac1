package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

/**
 * Mutation fuzzing of the decoders: records of a generated backup (every item type, histories,
 * deletions) are mutated at random (bytes flipped, inserted, deleted, duplicated, spliced,
 * truncated, JSON tokens dropped in) and decoded. A record either decodes into an item that
 * survives a second encode-decode unchanged, or fails with an {@link ItemDecodeException}; a
 * compressed stream, however broken, yields entries and ends. Anything else (another exception, a
 * hang) is a bug.
 *
 * <p>The normal build runs a short round. Longer: {@code ./mvnw test -pl restore-metadata
 * -Dtest=DecoderFuzzTest -Dfuzz.iterations=2000000} (and {@code -Dfuzz.seed=N} to replay a failure,
 * whose seed the failure message gives).
 */
class DecoderFuzzTest {

  private static final Set<ItemType> ALL = EnumSet.allOf(ItemType.class);
  private static final int ITERATIONS = Integer.getInteger("fuzz.iterations", 30_000);
  private static final long SEED = Long.getLong("fuzz.seed", System.nanoTime());
  private static final byte[][] TOKENS = {
    "\"".getBytes(StandardCharsets.UTF_8),
    "{".getBytes(StandardCharsets.UTF_8),
    "}".getBytes(StandardCharsets.UTF_8),
    "[".getBytes(StandardCharsets.UTF_8),
    "]".getBytes(StandardCharsets.UTF_8),
    ",".getBytes(StandardCharsets.UTF_8),
    ":".getBytes(StandardCharsets.UTF_8),
    "null".getBytes(StandardCharsets.UTF_8),
    "true".getBytes(StandardCharsets.UTF_8),
    "-1".getBytes(StandardCharsets.UTF_8),
    "1e309".getBytes(StandardCharsets.UTF_8),
    "99999999999999999999999".getBytes(StandardCharsets.UTF_8),
    "\\u0000".getBytes(StandardCharsets.UTF_8),
    "\\ud800".getBytes(StandardCharsets.UTF_8),
    "\"deleted\":true".getBytes(StandardCharsets.UTF_8),
    "\"type\":\"mountpoint\"".getBytes(StandardCharsets.UTF_8),
    "\"name\":\"..\"".getBytes(StandardCharsets.UTF_8),
    "\"validTo\":0".getBytes(StandardCharsets.UTF_8),
    {(byte) 0xC3, (byte) 0x28},
    {(byte) 0xFF},
    {0},
    {'\n'},
  };

  static List<byte[]> seeds = new ArrayList<>();

  @BeforeAll
  static void seeds(@TempDir Path dir) throws Exception {
    Path backup = dir.resolve("backup");
    BackupGenerator.generate(
        GeneratorSpec.defaults().withAccounts(2).withItemsPerAccount(150).withMetadataOnly(true),
        backup);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(backup))) {
      for (String account : reader.accountIds()) {
        try (ItemStream stream = reader.items(account, ALL)) {
          while (stream.hasNext()) {
            if (stream.next()
                instanceof ItemEntry.Decoded(Item item, String location, var passing)) {
              seeds.add(ItemCodecTest.encode(item));
            }
          }
        }
      }
    }
    assertThat(seeds).hasSizeGreaterThan(100);
  }

  static byte[] mutate(byte[] input, SplittableRandom random) {
    byte[] b = input;
    int operations = 1 + random.nextInt(4);
    for (int i = 0; i < operations; i++) {
      int at = b.length == 0 ? 0 : random.nextInt(b.length);
      b =
          switch (random.nextInt(7)) {
            case 0 -> { // flip a bit
              byte[] c = b.clone();
              if (c.length > 0) {
                c[at] ^= (byte) (1 << random.nextInt(8));
              }
              yield c;
            }
            case 1 -> insert(b, at, new byte[] {(byte) random.nextInt(256)});
            case 2 -> insert(b, at, TOKENS[random.nextInt(TOKENS.length)]);
            case 3 -> { // delete a range
              int n = Math.min(b.length - at, 1 + random.nextInt(16));
              byte[] c = new byte[b.length - n];
              System.arraycopy(b, 0, c, 0, at);
              System.arraycopy(b, at + n, c, at, b.length - at - n);
              yield c;
            }
            case 4 -> { // duplicate a range
              int n = Math.min(b.length - at, 1 + random.nextInt(32));
              byte[] range = new byte[n];
              System.arraycopy(b, at, range, 0, n);
              yield insert(b, at, range);
            }
            case 5 -> { // splice with another record
              byte[] other = seeds.get(random.nextInt(seeds.size()));
              int from = random.nextInt(other.length);
              byte[] c = new byte[at + other.length - from];
              System.arraycopy(b, 0, c, 0, at);
              System.arraycopy(other, from, c, at, other.length - from);
              yield c;
            }
            default -> java.util.Arrays.copyOf(b, at); // truncate
          };
    }
    return b;
  }

  private static byte[] insert(byte[] b, int at, byte[] what) {
    byte[] c = new byte[b.length + what.length];
    System.arraycopy(b, 0, c, 0, at);
    System.arraycopy(what, 0, c, at, what.length);
    System.arraycopy(b, at, c, at + what.length, b.length - at);
    return c;
  }

  private static String show(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    return text.length() < 2000 ? text : HexFormat.of().formatHex(input, 0, 1000) + "...";
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void mutatedRecordsDecodeOrFailWithAReason() {
    SplittableRandom random = new SplittableRandom(SEED);
    int decoded = 0;
    int refused = 0;
    for (int i = 0; i < ITERATIONS; i++) {
      byte[] input = mutate(seeds.get(random.nextInt(seeds.size())), random);
      try {
        Item item = ItemCodec.decode(input, 0, input.length, ALL);
        byte[] again = ItemCodecTest.encode(item);
        assertThat(ItemCodec.decode(again, 0, again.length, ALL))
            .as("a decoded item re-encodes to the same item (seed %d, iteration %d)", SEED, i)
            .isEqualTo(item);
        decoded++;
      } catch (ItemDecodeException e) {
        assertThat(e.getMessage()).isNotBlank();
        refused++;
      } catch (RuntimeException | AssertionError e) {
        fail("seed " + SEED + ", iteration " + i + ": " + e + " on input: " + show(input), e);
      }
    }
    assertThat(decoded).as("some mutations stay valid").isPositive();
    assertThat(refused).as("most mutations are refused").isPositive();
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void brokenCompressedStreamsYieldEntriesAndEnd() throws Exception {
    SplittableRandom random = new SplittableRandom(SEED + 1);
    StringBuilder lines = new StringBuilder();
    for (byte[] seed : seeds.subList(0, 40)) {
      lines.append(new String(seed, StandardCharsets.UTF_8)).append('\n');
    }
    byte[] compressed = Zstd.compress(lines.toString().getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < Math.max(200, ITERATIONS / 20); i++) {
      byte[] input = mutate(compressed, random);
      int entries = 0;
      try (PackedItemStream stream =
          new PackedItemStream(new ByteArrayInputStream(input), "fuzz", ALL)) {
        while (stream.hasNext()) {
          ItemEntry entry = stream.next();
          assertThat(entry.location()).startsWith("fuzz:");
          entries++;
          assertThat(entries).as("a stream of 40 records ends").isLessThan(10_000);
        }
      } catch (RuntimeException | AssertionError e) {
        fail("seed " + (SEED + 1) + ", iteration " + i + ": " + e, e);
      }
    }
  }
}
