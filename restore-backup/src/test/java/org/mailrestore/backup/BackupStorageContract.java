package org.mailrestore.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;

/**
 * What every {@link BackupStorage} must do: the same files read the same way wherever a backup
 * lives. An implementation's test extends this class and says how to place files.
 */
public abstract class BackupStorageContract {

  /** Places these files (relative paths with {@code /}) and returns the storage over them. */
  protected abstract BackupStorage storage(Map<String, byte[]> files) throws IOException;

  private static final Map<String, byte[]> FILES =
      Map.of(
          "backup.json", bytes("{}"),
          "accounts/b/account.json", bytes("{\"id\":\"b\"}"),
          "accounts/a/account.json", bytes("{\"id\":\"a\"}"),
          "accounts/a/items.jsonl.zst", new byte[] {0, 1, 2, (byte) 0xff},
          "domains/example.org.json", bytes("{}"));

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void filesReadBackExactly() throws IOException {
    try (BackupStorage storage = storage(FILES)) {
      for (Map.Entry<String, byte[]> f : FILES.entrySet()) {
        try (InputStream in = storage.open(f.getKey())) {
          assertThat(in.readAllBytes()).as(f.getKey()).isEqualTo(f.getValue());
        }
      }
    }
  }

  @Test
  void aMissingFileIsNoSuchFile() throws IOException {
    try (BackupStorage storage = storage(FILES)) {
      assertThat(storage.exists("accounts/a/account.json")).isTrue();
      assertThat(storage.exists("accounts/c/account.json")).isFalse();
      assertThatThrownBy(() -> storage.open("accounts/c/account.json").close())
          .isInstanceOf(NoSuchFileException.class);
    }
  }

  @Test
  void listingsAreTheEntriesDirectlyUnderSorted() throws IOException {
    try (BackupStorage storage = storage(FILES)) {
      assertThat(storage.list("accounts")).containsExactly("a", "b");
      assertThat(storage.list("accounts/a")).containsExactly("account.json", "items.jsonl.zst");
      assertThat(storage.list("domains")).containsExactly("example.org.json");
      assertThat(storage.list("cos")).isEmpty();
    }
  }

  @Test
  void itsBlobsAndItsNameAreThere() throws IOException {
    try (BackupStorage storage = storage(FILES)) {
      assertThat(storage.blobSource()).isNotNull();
      assertThat(storage.blobSource().describe(BlobDigest.ofContent(new byte[0]))).isNotBlank();
      assertThat(storage.describe()).isNotBlank();
    }
  }
}
