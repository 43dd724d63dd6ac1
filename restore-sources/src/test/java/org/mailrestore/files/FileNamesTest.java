package org.mailrestore.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names whose bytes are not UTF-8, as old mail clients wrote them, read back as text. */
class FileNamesTest {

  @TempDir Path dir;

  /**
   * Makes an entry named by raw bytes (Java cannot: it encodes names as UTF-8) and returns it as
   * listed, the way a reader meets it.
   */
  static Path rawNamed(Path dir, String octalEscapedName, boolean directory)
      throws IOException, InterruptedException {
    String make = directory ? "mkdir" : "touch";
    Process p =
        new ProcessBuilder("sh", "-c", make + " \"$(printf '" + octalEscapedName + "')\"")
            .directory(dir.toFile())
            .inheritIO()
            .start();
    assertThat(p.waitFor()).isZero();
    List<Path> listed = new ArrayList<>();
    try (var stream = Files.newDirectoryStream(dir)) {
      stream.forEach(listed::add);
    }
    assertThat(listed).hasSize(1);
    return listed.get(0);
  }

  @Test
  void aLatin1NameIsReadAsWindows1252AndStillOpens() throws Exception {
    Path file = rawNamed(dir, "Entw\\374rfe", false); // "Entwürfe" in Latin-1
    assertThat(file.getFileName().toString()).contains("\uFFFD");
    assertThat(FileNames.of(file)).isEqualTo("Entwürfe");
    Files.writeString(file, "still opens");
    assertThat(Files.readString(file)).isEqualTo("still opens");
  }

  @Test
  void aDirectoryNameToo() throws Exception {
    Path folder = rawNamed(dir, ".Gel\\366scht \\200", true); // Latin-1 and a Windows-1252 euro
    assertThat(FileNames.of(folder)).isEqualTo(".Gelöscht €");
  }

  @Test
  void utf8NamesReadTheSameInAnyLocale() throws Exception {
    // Decoded by Java in a UTF-8 locale, recovered from the bytes in the C locale.
    Path utf8 = rawNamed(dir, "Entw\\303\\274rfe \\344\\270\\213", false);
    assertThat(FileNames.of(utf8)).isEqualTo("Entwürfe 下");
    assertThat(FileNames.of(dir.resolve("cur"))).isEqualTo("cur");
    assertThat(FileNames.of(dir.getRoot())).isEmpty();
  }
}
