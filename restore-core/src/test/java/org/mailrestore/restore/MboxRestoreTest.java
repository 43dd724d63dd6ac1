package org.mailrestore.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.mail.Flags;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;

/** An mbox tree through the engine: restored, verified, re-run, exported byte for byte. */
class MboxRestoreTest {

  @TempDir Path dir;

  @Test
  void anMboxTreeRestoresVerifiesAndExportsEachMessageByteForByte() throws Exception {
    Path root = dir.resolve("Local Folders");
    List<byte[]> inbox = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      inbox.add(
          ("X-Mozilla-Status: 000"
                  + (i % 2)
                  + "\r\nSubject: message "
                  + i
                  + "\r\n\r\nFrom the start\r\n>From quoted\r\nbody "
                  + i
                  + "\r\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    List<byte[]> work =
        List.of("Subject: work\n\nno final line ending".getBytes(StandardCharsets.UTF_8));
    write(root.resolve("Inbox"), inbox);
    write(root.resolve("Work.sbd/Reports"), work);
    SourceSpec source = MboxSourceKind.of(root, "alice@example.org", "mboxrd", "tags");
    try (RestoreFixture f = new RestoreFixture()) {
      OperationSummary summary = f.restore(RestoreRequest.of(source));
      assertThat(summary.state()).as(summary.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.messages(f)).isEqualTo(41);
      assertThat(StoreContents.held(f))
          .filteredOn(h -> h.type() == ItemType.MESSAGE && (h.flags() & Flags.UNREAD) != 0)
          .as("X-Mozilla-Status without the read bit: unread")
          .hasSize(20);
      assertThat(f.verify(source, Verifier.Options.defaults()).differences()).isEmpty();
      assertThat(f.restore(RestoreRequest.of(source)).state()).isEqualTo(OperationState.COMPLETED);
      assertThat(StoreContents.messages(f)).as("a re-run adds nothing").isEqualTo(41);

      Path out = dir.resolve("maildir");
      f.runtime.export(
          ExportFormat.installed().require("maildir"), null, List.of("alice@example.org"), out);
      List<String> exported = new ArrayList<>();
      try (Stream<Path> files = Files.walk(out)) {
        for (Path p :
            files
                .filter(Files::isRegularFile)
                .filter(p -> out.relativize(p).toString().matches("(.*/)?(cur|new)/[^/]+"))
                .toList()) {
          exported.add(Files.readString(p, StandardCharsets.ISO_8859_1));
        }
      }
      List<String> expected = new ArrayList<>();
      inbox.forEach(m -> expected.add(new String(m, StandardCharsets.ISO_8859_1)));
      work.forEach(m -> expected.add(new String(m, StandardCharsets.ISO_8859_1)));
      assertThat(exported).containsExactlyInAnyOrderElementsOf(expected);
    }
  }

  private static void write(Path file, List<byte[]> messages) throws Exception {
    Files.createDirectories(file.getParent());
    byte[][] parts = new byte[messages.size()][];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = MboxWriter.mboxrd(messages.get(i), "From - Mon May 14 23:39:00 2001");
    }
    Files.write(file, MboxWriter.concat(parts));
  }
}
