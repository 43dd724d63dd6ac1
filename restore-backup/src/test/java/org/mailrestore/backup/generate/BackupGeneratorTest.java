package org.mailrestore.backup.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.backup.BackupReader;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.backup.LocalBackupStorage;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;

class BackupGeneratorTest {

  @TempDir Path dir;

  static String treeDigest(Path root) throws IOException {
    MessageDigest sha = BlobDigest.newSha256();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        sha.update(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
        sha.update(Files.readAllBytes(file));
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  static List<Item> items(BackupReader reader, String accountId) throws IOException {
    List<Item> items = new ArrayList<>();
    try (ItemStream stream = reader.items(accountId, EnumSet.allOf(ItemType.class))) {
      stream.forEachRemaining(e -> items.add(((ItemEntry.Decoded) e).item()));
    }
    return items;
  }

  @Test
  void sameSpecSameBytesWhateverTheThreads() throws IOException {
    GeneratorSpec spec = GeneratorSpec.defaults().withAccounts(6).withItemsPerAccount(200);
    BackupGenerator.generate(spec.withThreads(1), dir.resolve("a"));
    BackupGenerator.generate(spec.withThreads(4), dir.resolve("b"));
    BackupGenerator.generate(spec.withSeed(7), dir.resolve("c"));
    assertThat(treeDigest(dir.resolve("a"))).isEqualTo(treeDigest(dir.resolve("b")));
    assertThat(treeDigest(dir.resolve("a"))).isNotEqualTo(treeDigest(dir.resolve("c")));
  }

  @Test
  void messageSizesFollowTheRealDistribution() throws IOException {
    GeneratorSpec spec =
        GeneratorSpec.defaults()
            .withAccounts(4)
            .withItemsPerAccount(3000)
            .withLargeRate(0)
            .withFractions(0, 0, 0)
            .withShares(false);
    BackupGenerator.generate(spec, dir);
    List<Long> sizes = new ArrayList<>();
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir))) {
      for (String id : reader.accountIds()) {
        for (Item item : items(reader, id)) {
          if (item.type() == ItemType.MESSAGE) {
            sizes.add(item.latest().orElseThrow().size());
          }
        }
      }
    }
    sizes.sort(null);
    assertThat(sizes.size()).isGreaterThan(10_000);
    assertThat((double) percentile(sizes, 0.50)).isCloseTo(1700, within(1700 * 0.10));
    assertThat((double) percentile(sizes, 0.90)).isCloseTo(6300, within(6300 * 0.12));
    assertThat((double) percentile(sizes, 0.99)).isCloseTo(20_000, within(20_000 * 0.25));
  }

  @Test
  void tailOfLargeMessagesIsThere() throws IOException {
    GeneratorSpec spec =
        GeneratorSpec.defaults()
            .withAccounts(2)
            .withItemsPerAccount(400)
            .withLargeRate(0.01)
            .withShares(false);
    BackupGenerator.generate(spec, dir);
    long large = 0;
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir))) {
      for (String id : reader.accountIds()) {
        for (Item item : items(reader, id)) {
          Revision last = item.revisions().get(0);
          if (item.type() == ItemType.MESSAGE && last.size() >= 1 << 20) {
            large++;
            assertThat(last.flags()).contains("a");
          }
        }
      }
    }
    assertThat(large).isBetween(2L, 30L);
  }

  private static long percentile(List<Long> sorted, double p) {
    return sorted.get((int) Math.min(sorted.size() - 1, Math.round(p * (sorted.size() - 1))));
  }

  @Test
  void backupIsConsistent() throws IOException {
    GeneratorSpec spec =
        GeneratorSpec.defaults().withAccounts(10).withItemsPerAccount(150).withSystemAccounts(1);
    BackupGenerator.Report report = BackupGenerator.generate(spec, dir.resolve("b"));
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir.resolve("b")))) {
      assertThat(reader.accountIds()).hasSize(11);
      Map<String, Set<Integer>> folderIds = new HashMap<>();
      Map<String, List<Item>> byAccount = new HashMap<>();
      long total = 0;
      long deleted = 0;
      long multiRevision = 0;
      Set<String> digests = new HashSet<>();
      for (String id : reader.accountIds()) {
        Account account = ((Parsed.Ok<Account>) reader.account(id)).value();
        assertThat(account.id()).isEqualTo(id);
        List<Item> items = items(reader, id);
        byAccount.put(id, items);
        total += items.size();
        Set<Integer> folders = new HashSet<>();
        Set<Integer> ids = new HashSet<>();
        for (Item item : items) {
          assertThat(ids.add(item.id())).as("unique item ids").isTrue();
          if (item.type() == ItemType.FOLDER || item.type() == ItemType.SEARCH_FOLDER) {
            folders.add(item.id());
          }
          if (item.isDeleted()) {
            deleted++;
          }
          if (item.revisions().size() > 1) {
            multiRevision++;
          }
          for (Revision rev : item.revisions()) {
            assertThat(rev.validFrom()).isLessThan(spec.createdAt().toEpochMilli());
            if (rev.digest() != null) {
              digests.add(rev.digest().hex());
            }
          }
        }
        folderIds.put(id, folders);
      }
      assertThat(total).isEqualTo(report.items());
      assertThat(deleted).isGreaterThan(0);
      assertThat(multiRevision).isGreaterThan(0);
      // Every item's folder exists, every digest has a blob, every mount points at a real folder.
      int mountpoints = 0;
      for (Map.Entry<String, List<Item>> e : byAccount.entrySet()) {
        for (Item item : e.getValue()) {
          for (Revision rev : item.revisions()) {
            if (rev.deleted()) {
              continue;
            }
            if (item.type() != ItemType.TAG && rev.folderId() != 11) {
              assertThat(folderIds.get(e.getKey()))
                  .as("folder of item %d", item.id())
                  .contains(rev.folderId());
            }
            if (rev.mount() != null) {
              mountpoints++;
              assertThat(folderIds.get(rev.mount().ownerAccountId()))
                  .contains(rev.mount().remoteFolderId());
            }
          }
        }
      }
      assertThat(mountpoints).isGreaterThan(0);
      for (String hex : digests) {
        BlobDigest digest = new BlobDigest(hex);
        try (var in = reader.blobs().openVerified(digest, -1)) {
          in.transferTo(java.io.OutputStream.nullOutputStream());
        }
      }
      assertThat(report.blobsWritten()).isEqualTo(digests.size());
      int grants = 0;
      for (String id : reader.accountIds()) {
        for (Grant grant : ((Parsed.Ok<List<Grant>>) reader.grants(id)).value()) {
          grants++;
          assertThat(folderIds.get(id)).contains(grant.folderId());
          if (grant.granteeType() == GranteeType.USER) {
            assertThat(folderIds).containsKey(grant.granteeId());
          }
        }
      }
      assertThat(grants).isGreaterThan(0);
    }
  }

  @Test
  void looseLayoutAndCompressedBlobsWork() throws IOException {
    GeneratorSpec spec =
        GeneratorSpec.defaults()
            .withAccounts(2)
            .withItemsPerAccount(50)
            .withLayout(ItemLayout.LOOSE)
            .withBlobCompression(org.mailrestore.blob.BlobCompression.ZSTD);
    BackupGenerator.Report report = BackupGenerator.generate(spec, dir);
    try (BackupReader reader = BackupReader.open(new LocalBackupStorage(dir))) {
      String first = reader.accountIds().get(0);
      assertThat(reader.itemLayout(first)).isEqualTo(ItemLayout.LOOSE);
      assertThat(items(reader, first)).isNotEmpty();
    }
    try (Stream<Path> blobs = Files.walk(dir.resolve("blobs"))) {
      assertThat(blobs.filter(Files::isRegularFile).allMatch(p -> p.toString().endsWith(".zst")))
          .isTrue();
    }
    assertThat(report.contentItems()).isEqualTo(100);
  }
}
