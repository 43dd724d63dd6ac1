package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, as a newcomer runs it: the launcher's {@code demo} generates a
 * backup, starts an embedded MariaDB, restores, verifies and prints a summary.
 */
class DemoIT {

  @Test
  void demoRestoresAndVerifiesOnAnEmbeddedDatabase(@TempDir Path dir) throws Exception {
    List<String> command = new ArrayList<>(Launcher.command());
    command.addAll(
        List.of(
            "demo", "--dir", dir.resolve("demo").toString(), "--accounts", "5", "--items", "150"));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile())
            .start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the demo finishes").isTrue();
    String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(out).isZero();
    assertThat(out)
        .containsPattern("operation +[0-9a-f-]{36} +COMPLETED")
        .containsPattern("items +[1-9][0-9,]* restored")
        .contains("verify      no differences");
  }
}
