package org.mailrestore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The way dependencies point, read from the main code's imports (decisions 0001 and 0033): the
 * adapters (CLI, service, benchmarks) enter the engine through its facade only; the SPI module and
 * the kinds know nothing of the engine's inside.
 */
class LayeringTest {

  /** The project's root: this module's parent. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  /** The engine's inside: what only the engine (and its own tests) may name. */
  private static final Pattern ENGINE_INSIDE =
      Pattern.compile(
          "\\borg\\.mailrestore\\.(restore\\.(bookkeeping|coordination|data|run|provisioning"
              + "|shares)|runtime)\\.");

  /** Anything of the engine: its facade and vocabulary included. */
  private static final Pattern ENGINE =
      Pattern.compile("\\borg\\.mailrestore\\.(restore|runtime|verify)\\.");

  /** The benchmarks that measure one component alone, below the facade on purpose. */
  private static final Set<String> MICRO_BENCHMARKS =
      Set.of("WriterBench.java", "RawRows.java", "RestoreBench.java", "BenchDatabase.java");

  private static List<String> offenders(String module, Pattern forbidden, Set<String> exempt) {
    List<String> found = new ArrayList<>();
    Path main = ROOT.resolve(module).resolve("src/main/java");
    try (Stream<Path> files = Files.walk(main)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        if (exempt.contains(file.getFileName().toString())) {
          continue;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i).strip();
          if (line.startsWith("*") || line.startsWith("//") || line.startsWith("/*")) {
            continue; // a comment may name what the code must not use
          }
          Matcher m = forbidden.matcher(line);
          if (m.find()) {
            found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + line);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return found;
  }

  @Test
  void theServiceAndTheCliGoThroughTheFacade() {
    assertThat(offenders("restore-api", ENGINE_INSIDE, Set.of())).isEmpty();
  }

  @Test
  void theBenchmarksGoThroughTheFacadeButForTheMicroBenchmarks() {
    assertThat(offenders("restore-bench", ENGINE_INSIDE, MICRO_BENCHMARKS)).isEmpty();
  }

  @Test
  void theSpiAndTheKindsKnowNothingOfTheEngine() {
    for (String module :
        List.of(
            "restore-spi",
            "restore-backup",
            "restore-sources",
            "restore-mailstore",
            "restore-imap",
            "restore-ldap",
            "restore-dav")) {
      assertThat(offenders(module, ENGINE, Set.of())).as(module).isEmpty();
    }
  }

  @Test
  void theSpiKnowsNoKind() {
    Pattern kinds =
        Pattern.compile(
            "\\borg\\.mailrestore\\.(backup|maildir|mbox|zimbra|mailstore|imap|ldap|dav)\\.");
    assertThat(offenders("restore-spi", kinds, Set.of())).isEmpty();
  }
}
