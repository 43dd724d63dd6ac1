package org.mailrestore.mbox;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.mailrestore.blob.StorageLimits;
import org.mailrestore.blob.s3.S3Profiles;
import org.mailrestore.mail.Flags;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.SourceContext;
import org.mailrestore.testkit.ScratchSpace;

/**
 * The source contract for a Thunderbird tree of mbox files (one account): the flags live in each
 * message's own {@code X-Mozilla-Status} header, so the reference messages carry it.
 */
class MboxSourceContractTest extends MailSourceContract {

  private Path root;

  @Override
  protected List<Mailbox> mailboxes() {
    Mailbox alice = reference().get(0);
    return List.of(
        new Mailbox(
            alice.user(),
            alice.folders(),
            alice.messages().stream().map(MboxSourceContractTest::withStatus).toList()));
  }

  private static Message withStatus(Message m) {
    int bits = Flags.toBits(m.flags());
    int status =
        ((bits & Flags.UNREAD) == 0 ? 0x1 : 0)
            | ((bits & Flags.REPLIED) != 0 ? 0x2 : 0)
            | ((bits & Flags.FLAGGED) != 0 ? 0x4 : 0);
    String eol =
        new String(m.content(), StandardCharsets.ISO_8859_1).contains("\r\n") ? "\r\n" : "\n";
    byte[] header =
        String.format("X-Mozilla-Status: %04x%s", status, eol).getBytes(StandardCharsets.US_ASCII);
    byte[] content = new byte[header.length + m.content().length];
    System.arraycopy(header, 0, content, 0, header.length);
    System.arraycopy(m.content(), 0, content, header.length, m.content().length);
    return new Message(m.folder(), content, m.flags());
  }

  @Override
  protected MailSource open(Path dir, List<Mailbox> mailboxes) throws IOException {
    root = dir.resolve("Local Folders");
    Mailbox m = mailboxes.get(0);
    write(root.resolve("Inbox"), m, "");
    for (String folder : m.folders()) {
      String[] parts = folder.split("/");
      Path file = root;
      for (int i = 0; i < parts.length - 1; i++) {
        file = file.resolve(parts[i] + ".sbd");
      }
      write(file.resolve(parts[parts.length - 1]), m, folder);
    }
    return reopen();
  }

  /** Alice's Work folder is a gzip-compressed file cut short: what it held past the cut fails. */
  @Override
  protected Optional<MailSource> openDamaged(Path dir, List<Mailbox> mailboxes) throws IOException {
    var unused = open(dir, mailboxes);
    unused.close();
    Path work = root.resolve("Work");
    byte[] whole = Files.readAllBytes(work);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (var out = new java.util.zip.GZIPOutputStream(gz)) {
      out.write(whole);
    }
    Files.delete(work);
    byte[] compressed = gz.toByteArray();
    Files.write(
        root.resolve("Work.gz"), java.util.Arrays.copyOf(compressed, compressed.length - 12));
    return Optional.of(reopen());
  }

  /** Writes a folder's messages as mboxrd. */
  static void write(Path file, Mailbox mailbox, String folder) throws IOException {
    Files.createDirectories(file.getParent());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Message message : mailbox.messages()) {
      if (message.folder().equals(folder)) {
        out.write(MboxWriter.mboxrd(message.content(), "From - Mon May 14 23:39:00 2001"));
      }
    }
    Files.write(file, out.toByteArray());
  }

  @Override
  protected boolean remove(Path root) {
    ScratchSpace.deleteTree(root);
    return true;
  }

  @Override
  protected MailSource reopen() throws IOException {
    return MboxSourceKind.of(root, "alice@" + DOMAIN, "auto", "tags")
        .open(
            new SourceContext(
                S3Profiles.none(new SimpleMeterRegistry()),
                StorageLimits.DEFAULT,
                new SimpleMeterRegistry(),
                null));
  }
}
