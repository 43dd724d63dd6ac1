package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceFormatException;

class BackupRoundTripTest {

  static final Set<ItemType> ALL = EnumSet.allOf(ItemType.class);
  static final Instant CREATED = Instant.parse("2026-03-01T12:00:00Z");

  @TempDir Path dir;

  static List<Item> sampleItems() {
    return sampleItems(300);
  }

  static List<Item> sampleItems(int messages) {
    List<Item> items = new ArrayList<>();
    items.add(
        new Item(
            2,
            ItemType.FOLDER,
            List.of(
                Revision.builder(1, 10)
                    .uuid("f2")
                    .folder(1)
                    .name("Inbox")
                    .date(10)
                    .view("message")
                    .build())));
    items.add(
        new Item(
            257,
            ItemType.FOLDER,
            List.of(
                Revision.builder(1, 10)
                    .validTo(50)
                    .uuid("f257")
                    .folder(2)
                    .name("Old name")
                    .date(10)
                    .color(2)
                    .view("message")
                    .build(),
                Revision.builder(2, 50)
                    .uuid("f257")
                    .folder(2)
                    .name("New name")
                    .date(10)
                    .color(4)
                    .view("message")
                    .build())));
    for (int id = 300; id < 300 + messages; id++) {
      items.add(ItemCodecTest.message(id));
    }
    return items;
  }

  private BackupReader writeSample(ItemLayout layout) throws IOException {
    return writeSample(layout, sampleItems());
  }

  private BackupReader writeSample(ItemLayout layout, List<Item> items) throws IOException {
    Account account =
        new Account(
            "acct-1",
            "alice@example.org",
            "example.org",
            "default",
            "active",
            false,
            List.of("al@example.org"),
            Map.of("displayName", "Alice"));
    try (BackupWriter writer =
        BackupWriter.create(dir, BackupManifest.current("mx1", CREATED, "test"))) {
      writer.writeDomain(new Domain("example.org", "active", Map.of()));
      writer.writeClassOfService(new ClassOfService("default", Map.of("quota", "1")));
      writer.writeDistributionList(
          new DistributionList("team@example.org", "Team", List.of("alice@example.org"), Map.of()));
      try (ItemSink sink = writer.openAccount(account, layout)) {
        for (Item item : items) {
          sink.write(item);
        }
      }
      writer.writeGrants(
          "acct-1", List.of(new Grant(257, GranteeType.USER, "acct-2", "bob@example.org", "r")));
    }
    return BackupReader.open(new LocalBackupStorage(dir));
  }

  private static List<ItemEntry> readAll(BackupReader reader, String account, Set<ItemType> types)
      throws IOException {
    List<ItemEntry> entries = new ArrayList<>();
    try (ItemStream stream = reader.items(account, types)) {
      stream.forEachRemaining(entries::add);
    }
    return entries;
  }

  @ParameterizedTest
  @EnumSource(ItemLayout.class)
  void bothFormsRoundTripEveryRecord(ItemLayout layout) throws IOException {
    try (BackupReader reader = writeSample(layout)) {
      assertThat(reader.manifest().version()).isEqualTo(FormatVersion.CURRENT);
      assertThat(reader.manifest().createdAt()).isEqualTo(CREATED);
      assertThat(reader.itemLayout("acct-1")).isEqualTo(layout);
      assertThat(reader.domains())
          .containsExactly(
              new Parsed.Ok<>(
                  new Domain("example.org", "active", Map.of()), "domains/example.org.json"));
      assertThat(reader.classesOfService()).hasSize(1);
      assertThat(reader.distributionLists())
          .singleElement()
          .satisfies(p ->
              assertThat(((Parsed.Ok<DistributionList>) p).value().members())
                  .containsExactly("alice@example.org"));
      assertThat(reader.accountIds()).containsExactly("acct-1");
      Account account = ((Parsed.Ok<Account>) reader.account("acct-1")).value();
      assertThat(account.aliases()).containsExactly("al@example.org");
      assertThat(((Parsed.Ok<List<Grant>>) reader.grants("acct-1")).value())
          .containsExactly(new Grant(257, GranteeType.USER, "acct-2", "bob@example.org", "r"));

      List<Item> read =
          readAll(reader, "acct-1", ALL).stream().map(e -> ((ItemEntry.Decoded) e).item()).toList();
      assertThat(read).containsExactlyInAnyOrderElementsOf(sampleItems());
      assertThat(read.stream().filter(Item::isDeleted)).hasSize(300);

      List<ItemEntry> containers = readAll(reader, "acct-1", EnumSet.of(ItemType.FOLDER));
      assertThat(containers).hasSize(2);
    }
  }

  @ParameterizedTest
  @EnumSource(ItemLayout.class)
  void twoReadsSeeTheSameOrder(ItemLayout layout) throws IOException {
    try (BackupReader reader = writeSample(layout)) {
      assertThat(readAll(reader, "acct-1", ALL)).isEqualTo(readAll(reader, "acct-1", ALL));
    }
  }

  @Test
  void unknownMajorVersionIsRefusedClearly() throws IOException {
    Files.writeString(
        dir.resolve("backup.json"),
        "{\"format\":\"mailrestore-backup\",\"version\":\"2.0\",\"serverId\":\"x\"}");
    assertThatThrownBy(() -> BackupReader.open(new LocalBackupStorage(dir)))
        .isInstanceOf(SourceFormatException.class)
        .hasMessageContaining("format version 2.0")
        .hasMessageContaining("reads only version 1.x");
  }

  @Test
  void newerMinorVersionIsRead() throws IOException {
    Files.writeString(
        dir.resolve("backup.json"),
        "{\"format\":\"mailrestore-backup\",\"version\":\"1.7\",\"serverId\":\"x\",\"future\":1}");
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir))) {
      assertThat(reader.manifest().version()).isEqualTo(new FormatVersion(1, 7));
      assertThat(reader.accountIds()).isEmpty();
    }
  }

  @Test
  void missingManifestSaysThisIsNotABackup() {
    assertThatThrownBy(() -> BackupReader.open(new LocalBackupStorage(dir)))
        .isInstanceOf(SourceFormatException.class)
        .hasMessageContaining("not a mailrestore backup")
        .hasMessageContaining("backup.json");
  }

  @Test
  void truncatedLooseItemFileNamesFileAndItem() throws IOException {
    try (BackupReader reader = writeSample(ItemLayout.LOOSE)) {
      Path file = dir.resolve(BackupLayout.looseItemFile("acct-1", 321));
      byte[] bytes = Files.readAllBytes(file);
      Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
      List<ItemEntry> entries = readAll(reader, "acct-1", ALL);
      assertThat(entries).hasSize(sampleItems().size());
      assertThat(entries)
          .filteredOn(e -> e instanceof ItemEntry.Undecodable)
          .singleElement()
          .satisfies(e -> {
            ItemEntry.Undecodable bad = (ItemEntry.Undecodable) e;
            assertThat(bad.itemId()).isEqualTo(321);
            assertThat(bad.location()).isEqualTo("accounts/acct-1/items/21/321.json");
            assertThat(bad.reason()).contains("malformed JSON");
          });
    }
  }

  @Test
  void truncatedPackedStreamKeepsTheRecordsBeforeTheBreak() throws IOException {
    // Enough records for several zstd blocks (128 KiB each), so a truncated stream keeps some.
    List<Item> items = sampleItems(3000);
    try (BackupReader reader = writeSample(ItemLayout.PACKED, items)) {
      Path file = dir.resolve(BackupLayout.packedItems("acct-1"));
      byte[] bytes = Files.readAllBytes(file);
      Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));
      List<ItemEntry> entries = readAll(reader, "acct-1", ALL);
      ItemEntry last = entries.get(entries.size() - 1);
      assertThat(last).isInstanceOf(ItemEntry.Undecodable.class);
      assertThat(((ItemEntry.Undecodable) last).fatal()).isTrue();
      assertThat(last.location()).startsWith("accounts/acct-1/items.jsonl.zst:");
      assertThat(((ItemEntry.Undecodable) last).reason()).contains("truncated or corrupt");
      long decoded = entries.stream().filter(e -> e instanceof ItemEntry.Decoded).count();
      assertThat(decoded).isGreaterThan(0).isLessThan(items.size());
    }
  }

  @Test
  void oneBadLineInAPackedStreamDoesNotStopTheRest() throws IOException {
    Path file = dir.resolve("accounts/acct-9/items.jsonl.zst");
    Files.createDirectories(file.getParent());
    Files.writeString(
        dir.resolve("backup.json"), "{\"format\":\"mailrestore-backup\",\"version\":\"1.0\"}");
    try (OutputStream out =
        new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(file))) {
      out.write(
          ("{\"id\":300,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7}]}\n"
                  + "{\"id\":301,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7\n"
                  + "\n"
                  + "{\"id\":302,\"type\":\"contact\",\"revisions\":[{\"validFrom\":1,\"folder\":7}]}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir))) {
      List<ItemEntry> entries = readAll(reader, "acct-9", ALL);
      assertThat(entries).hasSize(3);
      assertThat(entries.get(1)).isInstanceOf(ItemEntry.Undecodable.class);
      assertThat(entries.get(1).location()).isEqualTo("accounts/acct-9/items.jsonl.zst:2");
      assertThat(((ItemEntry.Undecodable) entries.get(1)).itemId()).isEqualTo(301);
      assertThat(((ItemEntry.Decoded) entries.get(2)).item().id()).isEqualTo(302);
    }
  }

  @Test
  void blobsAreStoredOnceUnderTheirDigest() throws IOException {
    byte[] content = "Subject: t\r\n\r\nbody\r\n".getBytes(StandardCharsets.US_ASCII);
    BlobDigest digest = BlobDigest.ofContent(content);
    try (BackupWriter writer =
        BackupWriter.create(dir, BackupManifest.current("x", CREATED, null))) {
      assertThat(writer.writeBlob(digest, content, BlobCompression.ZSTD)).isTrue();
      assertThat(writer.writeBlob(digest, content, BlobCompression.ZSTD)).isFalse();
    }
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir));
        var in = reader.blobs().openVerified(digest, content.length)) {
      assertThat(in.readAllBytes()).isEqualTo(content);
    }
    assertThat(dir.resolve("blobs/" + digest.shard() + "/" + digest.hex() + ".zst")).exists();
  }

  @Test
  void writerRefusesANonEmptyDirectory() throws IOException {
    Files.writeString(dir.resolve("something"), "x");
    assertThatThrownBy(() -> BackupWriter.create(dir, BackupManifest.current("x", CREATED, null)))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
  }

  @Test
  void unsafeIdsNeverBecomePaths() {
    assertThatThrownBy(() -> BackupLayout.accountDir("../etc"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> BackupLayout.domainFile("a/b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(BackupLayout.isSafeSegment(".hidden")).isFalse();
  }
}
