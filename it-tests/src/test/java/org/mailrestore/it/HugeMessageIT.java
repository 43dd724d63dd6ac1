package org.mailrestore.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2 GiB message restores in a JVM with a 96 MiB heap: blobs stream through fixed buffers, never
 * whole in memory. The message comes from a Maildir tree (one file), and verify reads it back. An
 * IMAP target sends a message too large to hold from a temporary file.
 */
class HugeMessageIT {

  static final long BODY = 2L << 30;

  @TempDir Path dir;
  @RegisterExtension final OwnDatabase own = new OwnDatabase();

  @Test
  void aTwoGibMessageRestoresInASmallHeap() throws Exception {
    Path cur = Files.createDirectories(dir.resolve("mail/huge/cur"));
    Files.createDirectories(dir.resolve("mail/huge/new"));
    Files.createDirectories(dir.resolve("mail/huge/tmp"));
    write(cur.resolve("1700000000.M1P1.host:2,S"), "huge", BODY);
    Path volume = dir.resolve("volume");
    List<String> store = Cli.store(own.database(), volume);
    List<String> restore =
        new java.util.ArrayList<>(
            List.of(
                "restore",
                "run",
                "--maildir",
                dir.resolve("mail").toString(),
                "--maildir-domain",
                "example.org"));
    restore.addAll(store);
    CliProcess process = CliProcess.start(own.database().server().password(), "96m", restore);
    assertThat(process.waitFor(600)).as(process.output()).isZero();
    assertThat(process.output()).contains("COMPLETED").doesNotContain("OutOfMemoryError");

    List<String> verify =
        new java.util.ArrayList<>(
            List.of(
                "verify",
                "--maildir",
                dir.resolve("mail").toString(),
                "--maildir-domain",
                "example.org"));
    verify.addAll(store);
    CliProcess verified = CliProcess.start(own.database().server().password(), "96m", verify);
    assertThat(verified.waitFor(600)).as(verified.output()).isZero();
    assertThat(verified.output()).contains("no differences");
  }

  /**
   * Into an IMAP server, with a heap of 128 MiB: a message larger than the heap (160 MiB) restores
   * and verifies, spooled to a temporary file and sent from there, and read back in slices
   * (decision 0071); eight of 12 MiB around it too. Before, a message over an eighth of the heap
   * failed as too large, and before that it stopped the run with an {@link OutOfMemoryError}; the
   * eight did too, as a cluster was read whole and verify fetched them in one answer.
   */
  @Test
  void intoImapAMessageLargerThanTheHeapRestoresAndVerifies() throws Exception {
    ImapServers.Server server = ImapServers.DOVECOT.start();
    Path cur = Files.createDirectories(dir.resolve("imap/large/cur"));
    Files.createDirectories(dir.resolve("imap/large/new"));
    Files.createDirectories(dir.resolve("imap/large/tmp"));
    write(cur.resolve("1700000001.M1P1.host:2,S"), "large", 0);
    write(cur.resolve("1700000002.M2P1.host:2,S"), "large", 160L << 20);
    for (int i = 3; i <= 10; i++) {
      write(cur.resolve("17000000" + (10 + i) + ".M" + i + "P1.host:2,S"), "large", 12L << 20);
    }
    write(cur.resolve("1700000099.M99P1.host:2,S"), "large", 0);
    String domain = "large" + System.nanoTime() + ".example.org";
    long spoolsBefore = spools();
    List<String> restore = imapArgs("restore run", server, domain);
    CliProcess process =
        CliProcess.start(own.database().server().password(), "128m", server.environment(), restore);
    assertThat(process.waitFor(300)).as(process.output()).isZero();
    assertThat(process.output())
        .contains("COMPLETED")
        .contains("11 restored, 0 skipped, 0 failed")
        .doesNotContain("OutOfMemoryError");
    assertThat(spools()).as("the spooled message's file is gone").isEqualTo(spoolsBefore);

    CliProcess verified =
        CliProcess.start(
            own.database().server().password(),
            "128m",
            server.environment(),
            imapArgs("verify", server, domain));
    assertThat(verified.waitFor(300)).as(verified.output()).isZero();
    assertThat(verified.output()).contains("no differences").doesNotContain("OutOfMemoryError");
  }

  private static long spools() throws java.io.IOException {
    try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files
          .filter(f -> f.getFileName().toString().startsWith("mailrestore-append-"))
          .count();
    }
  }

  private List<String> imapArgs(String command, ImapServers.Server server, String domain) {
    List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
    args.addAll(List.of("--maildir", dir.resolve("imap").toString(), "--maildir-domain", domain));
    args.addAll(server.targetArgs());
    args.addAll(Cli.database(own.database()));
    return args;
  }

  /** A message of {@code body} bytes of base64-like lines (LF-ended) after its header. */
  private static void write(Path message, String user, long body) throws Exception {
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(message), 1 << 20)) {
      out.write(
          ("From: a@example.org\r\nTo: "
                  + user
                  + "@example.org\r\nSubject: a very large attachment\r\n"
                  + "Date: Tue, 14 Nov 2023 22:13:20 +0000\r\nMessage-ID: <"
                  + message.getFileName().toString().substring(0, 13)
                  + "@example.org>\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      byte[] line = new byte[1 << 20];
      Arrays.fill(line, (byte) 'A');
      for (int i = 0; i < line.length; i += 77) {
        line[i] = '\n';
      }
      for (long written = 0; written < body; written += line.length) {
        out.write(line);
      }
    }
  }
}
