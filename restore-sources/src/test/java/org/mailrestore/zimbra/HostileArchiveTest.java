package org.mailrestore.zimbra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceContext;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.zimbra.ZimbraArchiveTest.Read;

/**
 * Archives no Zimbra writes: each broken or hostile entry is refused with a reason a person can act
 * on, and every other item of the archive is read.
 */
class HostileArchiveTest {

  static final String ALICE = ZimbraArchiveTest.ALICE;

  @TempDir Path dir;

  private MailSource open(SourceSpec spec) throws IOException {
    return open(spec, StorageLimits.DEFAULT_MAX_ITEM_BYTES);
  }

  private MailSource open(SourceSpec spec, long maxItemBytes) throws IOException {
    return spec.open(
        new SourceContext(
            S3Profiles.none(new SimpleMeterRegistry()),
            StorageLimits.DEFAULT.withMaxItemBytes(maxItemBytes),
            new SimpleMeterRegistry(),
            null));
  }

  private Read read(ArchiveBuilder b) throws IOException {
    return read(b.tgz(), StorageLimits.DEFAULT_MAX_ITEM_BYTES);
  }

  private Read read(byte[] tgz, long maxItemBytes) throws IOException {
    Path file = dir.resolve(ALICE + ".tgz");
    Files.write(file, tgz);
    try (MailSource source = open(ZimbraTgzKind.local(file), maxItemBytes)) {
      return ZimbraArchiveTest.read(source, ALICE);
    }
  }

  /** A good message before and after the hostile entries: both must be read. */
  private static ArchiveBuilder around(ArchiveBuilder hostile) {
    return hostile;
  }

  private static ArchiveBuilder start() {
    return new ArchiveBuilder()
        .message(300, "/Inbox", ArchiveBuilder.mail("before", "b"), "", null);
  }

  private static ArchiveBuilder end(ArchiveBuilder b) {
    return b.message(399, "/Inbox", ArchiveBuilder.mail("after", "a"), "", null);
  }

  private static String reasonOf(Read read) {
    assertThat(read.items()).as("the good items around it").containsKeys(300, 399);
    assertThat(read.bad()).hasSize(1);
    return read.bad().get(0).reason();
  }

  @Test
  void aMetaThatIsNotJsonNamesWhereItBreaksWithoutQuotingIt() throws IOException {
    Read read =
        read(
            end(
                start()
                    .entry(
                        "Inbox/0000000301-x.eml.meta",
                        "{\"id\": secret".getBytes(StandardCharsets.US_ASCII))));
    assertThat(reasonOf(read))
        .contains("not valid JSON")
        .contains("line 1")
        .doesNotContain("secret");
  }

  @Test
  void aNewerMetadataVersionIsRefused() throws IOException {
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/Inbox");
    m.put("Ver", 11);
    Read read = read(end(start().meta("Inbox/0000000301-x.eml.meta", m)));
    assertThat(reasonOf(read)).contains("version 11").contains("newer");
  }

  @Test
  void aPathWithDotDotIsRefused() throws IOException {
    Read read =
        read(
            end(start().message(301, "/Inbox/../../etc", ArchiveBuilder.mail("x", "x"), "", null)));
    assertThat(reasonOf(read)).contains("\"..\"");
  }

  @Test
  void absoluteAndEscapingEntryNamesAreRefused() throws IOException {
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/Inbox");
    Read read = read(end(start().meta("/etc/0000000301-x.eml.meta", m)));
    assertThat(reasonOf(read)).contains("absolute");
    read = read(end(start().meta("Inbox/../../0000000301-x.eml.meta", m)));
    assertThat(reasonOf(read)).contains("\"..\"");
  }

  @Test
  void aNulInANameIsRefused() throws IOException {
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/In\u0000box");
    Read read = read(end(start().meta("Inbox/0000000301-x.eml.meta", m)));
    assertThat(reasonOf(read)).contains("NUL");
  }

  @Test
  void contentOfAnotherSizeThanDeclaredIsRefused() throws IOException {
    byte[] content = ArchiveBuilder.mail("x", "x");
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/Inbox");
    m.put("size", content.length - 3);
    m.put("blob_digest", MetaFields.zimbraDigest(BlobDigest.ofContent(content)));
    Read read =
        read(
            end(
                start()
                    .meta("Inbox/0000000301-x.eml.meta", m)
                    .entry("Inbox/0000000301-x.eml", content, 5, 0100644)));
    assertThat(reasonOf(read)).contains("holds " + content.length + " bytes").contains("declares");
  }

  @Test
  void aLyingBencodedLengthFailsAContact() throws IOException {
    Map<String, Object> m = ArchiveBuilder.item(301, 6, "/Contacts");
    m.put("metadata", "d3:fldd5:email999:a@b.orgee");
    Read read = read(end(start().meta("Contacts/x.meta", m)));
    assertThat(reasonOf(read)).contains("metadata cannot be decoded").contains("announced");
  }

  @Test
  void anEntryOverTheBoundIsRefusedAndPassedOverNotHeld() throws IOException {
    byte[] bomb = new byte[8 << 20]; // zeros: a few kilobytes compressed
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/Inbox");
    m.put("size", bomb.length);
    byte[] tgz =
        end(start()
                .meta("Inbox/0000000301-bomb.eml.meta", m)
                .entry("Inbox/0000000301-bomb.eml", bomb, 5, 0100644))
            .tgz();
    assertThat(tgz.length).isLessThan(100_000);
    Read read = read(tgz, 1 << 20);
    assertThat(reasonOf(read))
        .contains("more than 1048576 bytes")
        .contains("mailrestore.limits.max-item-size");
    assertThat(read.bad())
        .extracting(ItemEntry.Undecodable::failure)
        .containsOnly(org.mailrestore.kind.FailureReason.ITEM_TOO_LARGE);
  }

  @Test
  void duplicateIdsKeepTheFirst() throws IOException {
    Read read =
        read(end(start().message(300, "/Inbox", ArchiveBuilder.mail("again", "again"), "", null)));
    assertThat(reasonOf(read)).contains("same id 300");
    assertThat(read.contents().get(300)).isEqualTo(ArchiveBuilder.mail("before", "b"));
  }

  @Test
  void missingAndLateContentFailTheirItems() throws IOException {
    byte[] content = ArchiveBuilder.mail("x", "x");
    Map<String, Object> m1 = ArchiveBuilder.item(301, 5, "/Inbox");
    m1.put("size", content.length);
    Map<String, Object> m2 = ArchiveBuilder.item(302, 5, "/Inbox");
    m2.put("size", content.length);
    Read read =
        read(
            end(
                start()
                    .meta("Inbox/0000000301-x.eml.meta", m1)
                    .meta("Inbox/0000000302-y.eml.meta", m2)
                    .entry("Inbox/0000000301-x.eml", content, 5, 0100644)
                    .entry("Inbox/0000000302-y.eml", content, 5, 0100644)));
    assertThat(read.items()).containsKeys(300, 399).doesNotContainKeys(301, 302);
    assertThat(read.bad())
        .extracting(ItemEntry.Undecodable::reason)
        .anySatisfy(r -> assertThat(r).contains("content entry is missing"))
        .anySatisfy(r -> assertThat(r).contains("no .meta right before it"));
  }

  @Test
  void anErrMarkFailsTheItemWhenItsContentIsRead() throws IOException {
    Path file = dir.resolve(ALICE + ".tgz");
    end(start()
            .message(301, "/Inbox", ArchiveBuilder.mail("padded", "   "), "", null)
            .entry("Inbox/0000000301-message 301.eml.err", new byte[0]))
        .write(file);
    try (MailSource source = open(ZimbraTgzKind.local(file));
        ItemStream stream = source.items(ALICE, ItemType.contents())) {
      int read = 0;
      while (stream.hasNext()) {
        ItemEntry.Decoded d = (ItemEntry.Decoded) stream.next();
        try (InputStream in = d.passing().open()) {
          if (d.item().id() == 301) {
            assertThatThrownBy(in::readAllBytes)
                .isInstanceOf(BlobException.class)
                .hasMessageContaining(".err");
          } else {
            in.readAllBytes();
          }
        }
        read++;
      }
      assertThat(read).isEqualTo(3);
    }
  }

  @Test
  void anOldSha1DigestIsCheckedAsTheContentPasses() throws IOException {
    byte[] content = ArchiveBuilder.mail("x", "x");
    Map<String, Object> m = ArchiveBuilder.item(301, 5, "/Inbox");
    m.put("size", content.length);
    m.put(
        "blob_digest",
        java.util.Base64.getEncoder().encodeToString(new byte[20]).replace('/', ','));
    Path file = dir.resolve(ALICE + ".tgz");
    new ArchiveBuilder()
        .meta("Inbox/0000000301-x.eml.meta", m)
        .entry("Inbox/0000000301-x.eml", content, 5, 0100644)
        .write(file);
    try (MailSource source = open(ZimbraTgzKind.local(file));
        ItemStream stream = source.items(ALICE, ItemType.contents())) {
      ItemEntry.Decoded d = (ItemEntry.Decoded) stream.next();
      assertThatThrownBy(() -> d.passing().open().readAllBytes())
          .isInstanceOf(BlobException.class)
          .hasMessageContaining("SHA-1");
    }
  }

  @Test
  void aTruncatedArchiveGivesEveryCompleteItemThenOneFatalRecordWithTheOffset() throws IOException {
    ArchiveBuilder b = new ArchiveBuilder();
    Random random = new Random(1);
    for (int i = 0; i < 20; i++) {
      byte[] noise = new byte[20_000];
      random.nextBytes(noise); // incompressible, so the cut lands in the middle
      b.message(300 + i, "/Inbox", noise, "", null);
    }
    byte[] tgz = b.tgz();
    byte[] cut = Arrays.copyOf(tgz, tgz.length * 2 / 3);
    Path file = dir.resolve(ALICE + ".tgz");
    Files.write(file, cut);
    try (MailSource source = open(ZimbraTgzKind.local(file));
        ItemStream stream = source.items(ALICE, EnumSet.allOf(ItemType.class))) {
      int complete = 0;
      ItemEntry last = null;
      while (stream.hasNext()) {
        last = stream.next();
        if (last instanceof ItemEntry.Decoded d) {
          try (InputStream in = d.passing().open()) {
            in.readAllBytes();
            complete++;
          } catch (IOException e) {
            assertThat(e).hasMessageContaining("ends");
          }
        }
      }
      assertThat(complete).isBetween(10, 14);
      assertThat(last).isInstanceOf(ItemEntry.Undecodable.class);
      ItemEntry.Undecodable fatal = (ItemEntry.Undecodable) last;
      assertThat(fatal.fatal()).isTrue();
      assertThat(fatal.location()).contains("at byte " + cut.length);
      assertThat(fatal.reason()).contains("ends early");
    }
  }

  /** Random damage anywhere in a valid archive: the reader ends, and never with an exception. */
  @Test
  void fuzz() throws IOException {
    byte[] tar = ZimbraArchiveTest.everything().tar();
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      byte[] damaged = tar.clone();
      for (int i = 0; i < 1 + random.nextInt(8); i++) {
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
      }
      if (random.nextBoolean()) {
        damaged = Arrays.copyOf(damaged, random.nextInt(damaged.length));
      }
      Path file = dir.resolve(ALICE + ".tgz");
      Files.write(file, ArchiveBuilder.gzip(damaged));
      try (MailSource source = open(ZimbraTgzKind.local(file))) {
        Read read = ZimbraArchiveTest.read(source, ALICE);
        assertThat(read.items().size() + read.bad().size()).isLessThan(1000);
      } catch (IOException | RuntimeException e) {
        throw new AssertionError("round " + round + ": " + e, e);
      }
    }
  }

  static List<String> reasons(Read read) {
    return read.bad().stream().map(ItemEntry.Undecodable::reason).toList();
  }
}
