package org.mailrestore.restore;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.backup.BackupManifest;
import org.mailrestore.backup.BackupWriter;
import org.mailrestore.backup.ItemLayout;
import org.mailrestore.blob.BlobCompression;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;

/**
 * A backup with one bad record per kind of damage real backups hold, among good ones: a folder and
 * five messages, then corrupt and truncated records, invalid UTF-8, path-like and control-character
 * folder names, an oversized record, a message in a missing folder, a missing blob, a blob whose
 * bytes do not match its digest, and a blob that claims 10 MB and holds a few bytes. Shared by the
 * engine's test and the end-to-end one.
 */
public final class HostileBackup {

  /** The items a restore of it restores: the folder, five messages and the two cycle folders. */
  public static final int GOOD_ITEMS = 8;

  /** Of which messages with a blob. */
  public static final int GOOD_MESSAGES = 5;

  private HostileBackup() {}

  /** Good items: a folder, and messages in it and in the inbox, with their blobs. */
  private static final int GOOD_FOLDER = 300;

  private static byte[] line(String json) {
    return (json + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static String message(int id, int folder, BlobDigest digest, long size, String extra) {
    return "{\"id\":"
        + id
        + ",\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"folder\":"
        + folder
        + ",\"size\":"
        + size
        + ",\"digest\":\""
        + digest.hex()
        + "\""
        + extra
        + "}]}";
  }

  /** Writes the backup and returns the failures its restore must record: item id to reason. */
  public static Map<Integer, String> write(Path backup) throws IOException {
    byte[] good = "Subject: fine\r\n\r\nfine\r\n".getBytes(StandardCharsets.US_ASCII);
    BlobDigest goodDigest = BlobDigest.ofContent(good);
    byte[] lying = "Subject: not what the name says\n\n".getBytes(StandardCharsets.US_ASCII);
    BlobDigest claimed = BlobDigest.ofContent("something else".getBytes(StandardCharsets.UTF_8));
    BlobDigest absent = BlobDigest.ofContent("never stored".getBytes(StandardCharsets.UTF_8));
    Account account =
        new Account("u1", "eve@hostile.example", "hostile.example", null, null, false, null, null);
    try (BackupWriter writer =
        BackupWriter.create(
            backup, BackupManifest.current("hostile", Instant.EPOCH, "one bad record each"))) {
      writer.writeDomain(new Domain("hostile.example", "active", Map.of()));
      writer.writeBlob(goodDigest, good, BlobCompression.NONE);
      // A blob whose bytes do not hash to its name.
      Path wrong =
          backup.resolve(BackupLayout.BLOBS).resolve(claimed.shard()).resolve(claimed.hex());
      Files.createDirectories(wrong.getParent());
      Files.write(wrong, lying);
      // The account file; its item stream is written by hand below, bad records included.
      writer.openAccount(account, ItemLayout.PACKED).close();
    }
    // The account's items: the good ones, then one bad record per case.
    ByteArrayOutputStream lines = new ByteArrayOutputStream();
    lines.write(
        line(
            "{\"id\":300,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,"
                + "\"name\":\"Projects\"}]}"));
    for (int i = 0; i < 5; i++) {
      lines.write(
          line(message(400 + i, i % 2 == 0 ? 2 : GOOD_FOLDER, goodDigest, good.length, "")));
    }
    Map<Integer, String> expected = new TreeMap<>();
    lines.write(line("{\"id\":501,\"type\":\"message\",\"revisions\":[{\"validFrom\":1,\"fol"));
    expected.put(501, "INVALID_ITEM");
    lines.write(
        line(
            "{\"id\":502,\"type\":\"message\",\"revisions\":[{\"validFrom\":\"yesterday\","
                + "\"folder\":2}]}"));
    expected.put(502, "INVALID_ITEM");
    lines.write(line("{\"id\":503,\"type\":\"hologram\",\"revisions\":[{\"validFrom\":1}]}"));
    expected.put(503, "INVALID_ITEM");
    byte[] prefix =
        "{\"id\":504,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\"a"
            .getBytes(StandardCharsets.US_ASCII);
    lines.write(prefix);
    lines.write(new byte[] {(byte) 0xC3, (byte) 0x28});
    lines.write(line("\"}]}"));
    expected.put(504, "INVALID_ITEM");
    String[] badNames = {"a/b", "..", "a\\u0000b", "tab\\u0009name"};
    for (int i = 0; i < badNames.length; i++) {
      lines.write(
          line(
              "{\"id\":"
                  + (505 + i)
                  + ",\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":1,\"name\":\""
                  + badNames[i]
                  + "\"}]}"));
      expected.put(505 + i, "INVALID_ITEM");
    }
    lines.write(
        line(
            message(
                509, 2, goodDigest, good.length, ",\"subject\":\"" + "x".repeat(2 << 20) + "\"")));
    expected.put(509, "INVALID_ITEM");
    lines.write(line(message(510, 999, goodDigest, good.length, "")));
    expected.put(510, "FOLDER_MISSING");
    lines.write(line(message(511, 2, absent, 12, "")));
    expected.put(511, "BLOB_MISSING");
    lines.write(line(message(512, 2, claimed, lying.length, "")));
    expected.put(512, "DIGEST_MISMATCH");
    lines.write(line(message(513, 2, goodDigest, 10_000_000, "")));
    expected.put(513, "SIZE_MISMATCH");
    // Two folders, each the other's parent: the cycle is broken (a repair, restored).
    lines.write(
        line(
            "{\"id\":520,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":521,"
                + "\"name\":\"Loop A\"}]}"));
    lines.write(
        line(
            "{\"id\":521,\"type\":\"folder\",\"revisions\":[{\"validFrom\":1,\"folder\":520,"
                + "\"name\":\"Loop B\"}]}"));
    expected.put(520, "FOLDER_CYCLE");
    try (OutputStream out =
        new ZstdOutputStream(
            Files.newOutputStream(backup.resolve(BackupLayout.packedItems("u1"))))) {
      out.write(lines.toByteArray());
    }

    return expected;
  }
}
