package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupManifest;
import org.mailrestore.backup.BackupSourceKind;
import org.mailrestore.backup.BackupWriter;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.files.Compression;
import org.mailrestore.files.Compressors;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.zimbra.ArchiveBuilder;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * One bound on an item's size once decompressed, held by every decompressing reader (issue 41): a
 * small file that inflates past {@code max-item-size} fails alone as {@code ITEM_TOO_LARGE}, the
 * messages around it are restored, and nothing of it is kept (no blob of it in the target).
 */
class DecompressionBoundTest {

  /** The bound the tests set: 1 MiB. */
  static final long MAX = 1 << 20;

  /** A message of 8 MiB of one repeated line: a few kilobytes compressed. */
  static final byte[] BOMB = bomb();

  /** How each compression's files are named (Dovecot's LZ4 has no extension of its own). */
  static final Map<Compression, String> EXTENSIONS =
      Map.of(
          Compression.NONE, "",
          Compression.GZIP, ".gz",
          Compression.ZSTD, ".zst",
          Compression.BZIP2, ".bz2",
          Compression.XZ, ".xz",
          Compression.DOVECOT_LZ4, "");

  @TempDir Path dir;

  private static byte[] bomb() {
    StringBuilder text = new StringBuilder("Subject: bomb\r\n\r\n");
    String line = "the same line again and again, to be compressed to nothing\r\n";
    while (text.length() < 8 << 20) {
      text.append(line);
    }
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] message(String subject) {
    return ("Subject: " + subject + "\r\nMessage-ID: <" + subject + "@x>\r\n\r\nbody\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private RestoreFixture bounded() throws Exception {
    return new RestoreFixture(StorageLimits.DEFAULT.withMaxItemBytes(MAX));
  }

  /** The operation PARTIAL, the bomb failed with the reason, the two others restored. */
  private static void onlyTheBombFails(RestoreFixture f, OperationSummary s) throws Exception {
    assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
    List<String> reasons = new ArrayList<>();
    f.engine.bookkeeping().failures().list(s.id(), 0, 100).forEach(r -> reasons.add(r.reason()));
    assertThat(reasons).containsExactly("ITEM_TOO_LARGE");
    assertThat(f.engine.bookkeeping().failures().list(s.id(), 0, 100).get(0).detail())
        .contains("more than " + MAX + " bytes")
        .contains("max-item-size");
    assertThat(StoreContents.withSubject(f, "before")).isOne();
    assertThat(StoreContents.withSubject(f, "after")).isOne();
    assertThat(StoreContents.withSubject(f, "bomb")).isZero();
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void anMboxThatInflatesPastTheBoundFailsThatMessageAlone(Compression compression)
      throws Exception {
    String separator = "From - Mon May 14 23:39:00 2001";
    byte[] mbox =
        MboxWriter.concat(
            MboxWriter.mboxrd(message("before"), separator),
            MboxWriter.mboxrd(BOMB, separator),
            MboxWriter.mboxrd(message("after"), separator));
    Path tree = Files.createDirectories(dir.resolve("mbox"));
    byte[] file = Compressors.compress(compression, mbox);
    Files.write(tree.resolve("Inbox" + EXTENSIONS.get(compression)), file);
    try (RestoreFixture f = bounded()) {
      onlyTheBombFails(
          f,
          f.restore(RestoreRequest.of(MboxSourceKind.of(tree, "a@example.org", "auto", "tags"))));
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void aMaildirMessageThatInflatesPastTheBoundFailsAlone(Compression compression) throws Exception {
    Path cur = Files.createDirectories(dir.resolve("maildir/alice/cur"));
    Files.createDirectories(dir.resolve("maildir/alice/new"));
    Files.write(cur.resolve("1.M1P1.host:2,S"), message("before"));
    // Dovecot's zlib plugin marks a compressed file with Z in its flags.
    Files.write(cur.resolve("2.M2P1.host:2,SZ"), Compressors.compress(compression, BOMB));
    Files.write(cur.resolve("3.M3P1.host:2,S"), message("after"));
    try (RestoreFixture f = bounded()) {
      onlyTheBombFails(
          f,
          f.restore(
              RestoreRequest.of(
                  MaildirSourceKind.of(dir.resolve("maildir"), "example.org", "auto"))));
    }
  }

  @Test
  void aZimbraArchiveEntryPastTheBoundFailsAlone() throws Exception {
    Path archives = Files.createDirectories(dir.resolve("archives"));
    new ArchiveBuilder()
        .folder(2, "/Inbox")
        .message(300, "/Inbox", message("before"), "", null)
        .message(301, "/Inbox", BOMB, "", null)
        .message(302, "/Inbox", message("after"), "", null)
        .write(archives.resolve("alice@example.org.tgz"));
    try (RestoreFixture f = bounded()) {
      OperationSummary s = f.restore(RestoreRequest.of(ZimbraTgzKind.local(archives)));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(reasons(f, s)).containsExactly("ITEM_TOO_LARGE");
      assertThat(StoreContents.messages(f)).isEqualTo(2);
    }
  }

  /**
   * A backup's blob compressed with zstd: one whose item declares more than the bound fails before
   * it is read; one that declares little and inflates past it fails as it passes its declared size
   * (never more on disk); the one between them is restored.
   */
  @Test
  void aBackupBlobPastTheBoundFailsAlone() throws Exception {
    Path backup = dir.resolve("backup");
    byte[] good = message("fine");
    BlobDigest goodDigest = BlobDigest.ofContent(good);
    BlobDigest bombDigest = BlobDigest.ofContent(BOMB);
    try (BackupWriter writer =
        BackupWriter.create(backup, BackupManifest.current("bombs", Instant.EPOCH, "bombs"))) {
      writer.writeDomain(new Domain("example.org", "active", Map.of()));
      writer.writeBlob(goodDigest, good, BlobCompression.ZSTD);
      writer.writeBlob(bombDigest, BOMB, BlobCompression.ZSTD);
      writer
          .openAccount(
              new Account("u1", "u1@example.org", "example.org", null, null, false, null, null),
              ItemLayout.PACKED)
          .close();
    }
    String lines =
        record(400, goodDigest, good.length)
            + record(401, bombDigest, BOMB.length) // declared: over the bound
            + record(402, bombDigest, 100); // declared small: inflates past it
    try (OutputStream out =
        new ZstdOutputStream(
            Files.newOutputStream(backup.resolve(BackupLayout.packedItems("u1"))))) {
      out.write(lines.getBytes(StandardCharsets.UTF_8));
    }
    try (RestoreFixture f = bounded()) {
      OperationSummary s = f.restore(RestoreRequest.of(BackupSourceKind.local(backup)));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(reasons(f, s)).containsExactlyInAnyOrder("ITEM_TOO_LARGE", "SIZE_MISMATCH");
      assertThat(StoreContents.messages(f)).isOne();
    }
  }

  private static String record(int id, BlobDigest digest, long size) {
    return "{\"id\":"
        + id
        + ",\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":2,\"size\":"
        + size
        + ",\"digest\":\""
        + digest.hex()
        + "\"}]}\n";
  }

  private static List<String> reasons(RestoreFixture f, OperationSummary s) throws Exception {
    List<String> reasons = new ArrayList<>();
    f.engine.bookkeeping().failures().list(s.id(), 0, 100).forEach(r -> reasons.add(r.reason()));
    return reasons;
  }
}
