package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real mail of ../shared/corpora (see its README): where it is (MAILRESTORE_CORPORA, else the
 * build's {@code mailrestore.corpora}), and how to unpack an archive. Tests that need it are
 * skipped, saying why, where it is absent.
 */
final class Corpora {

  private Corpora() {}

  static Path archive(String name) {
    String configured = System.getenv("MAILRESTORE_CORPORA");
    if (configured == null || configured.isBlank()) {
      configured = System.getProperty("mailrestore.corpora", "");
    }
    Path archive = Path.of(configured).resolve(name);
    Assumptions.assumeTrue(
        Files.isRegularFile(archive),
        "the corpus "
            + archive.toAbsolutePath().normalize()
            + " is absent; set MAILRESTORE_CORPORA to the folder holding it to run this test");
    return archive;
  }

  /**
   * Unpacks a {@code .tar.zst} archive into {@code into} (GNU tar with zstd, as the README says).
   */
  static void extract(Path archive, Path into) throws IOException, InterruptedException {
    Files.createDirectories(into);
    Process tar =
        new ProcessBuilder("tar", "--zstd", "-xf", archive.toString(), "-C", into.toString())
            .redirectErrorStream(true)
            .start();
    String output =
        new String(tar.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(tar.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(tar.exitValue()).as("tar --zstd -xf %s: %s", archive, output).isZero();
  }

  /** The lines of a SHA256SUMS file: path (as written, {@code ./a/b}) to digest. */
  static Map<String, String> sums(Path file) throws IOException {
    Map<String, String> sums = new TreeMap<>();
    for (String line : Files.readAllLines(file)) {
      if (line.length() > 66) {
        sums.put(line.substring(66), line.substring(0, 64));
      }
    }
    return sums;
  }
}
