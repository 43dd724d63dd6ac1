package org.mailrestore.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.mail.Flags;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.MailSourceContract;
import org.mailrestore.source.MailSourceContract.Mailbox;
import org.mailrestore.source.ReferenceSource;
import org.mailrestore.source.SourceReading;

/**
 * What every {@link ExportFormat} must do: what it writes reads back, through the source of the
 * same format, as what it was given (folders, every message's bytes, flags where the format keeps
 * them); it writes into a new or empty place only. An implementation's test extends this class.
 */
public abstract class ExportFormatContract {

  @TempDir protected Path dir;

  protected abstract ExportFormat format();

  /** Where the export goes (a directory to create, or a file a one-account format writes). */
  protected Path out() {
    return dir.resolve("export");
  }

  /** Opens what was exported with the source kind of the same format. */
  protected abstract MailSource reopen(Path out, List<Mailbox> exported) throws IOException;

  /** Whether the format keeps flags (a plain tree of files does not). */
  protected boolean keepsFlags() {
    return true;
  }

  /** The mailboxes exported: both of the reference, or alice alone for a one-account format. */
  protected List<Mailbox> mailboxes() {
    List<Mailbox> reference = MailSourceContract.reference();
    return format().singleAccount() ? reference.subList(0, 1) : reference;
  }

  private ExportReport export() throws IOException {
    List<Mailbox> mailboxes = mailboxes();
    try (MailSource source = new ReferenceSource(mailboxes)) {
      return format().export(source, mailboxes.stream().map(Mailbox::user).toList(), out());
    }
  }

  @Test
  void whatIsExportedReadsBackThroughTheFormatsOwnSource() throws IOException {
    ExportReport report = export();
    assertThat(report.problems()).isEmpty();
    assertThat(report.accounts())
        .containsExactlyInAnyOrderElementsOf(
            mailboxes().stream().map(m -> m.user() + "@" + MailSourceContract.DOMAIN).toList());
    long messages = mailboxes().stream().mapToLong(m -> m.messages().size()).sum();
    assertThat(report.items()).isGreaterThanOrEqualTo(messages);
    try (MailSource back = reopen(out(), mailboxes())) {
      for (Mailbox mailbox : mailboxes()) {
        SourceReading.Read read =
            SourceReading.read(back, SourceReading.accountOf(back, mailbox.user()));
        assertThat(new HashSet<>(read.folderPaths().values()))
            .as(mailbox.user() + "'s folders")
            .containsAll(mailbox.folders());
        List<String> expected = new ArrayList<>();
        mailbox
            .messages()
            .forEach(
                m -> expected.add(m.folder() + "|" + text(m.content()) + "|" + flags(m.flags())));
        List<String> actual = new ArrayList<>();
        read.messages()
            .forEach(
                m -> actual.add(m.folder() + "|" + text(m.content()) + "|" + flags(m.flags())));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void anExportGoesOnlyIntoANewOrEmptyPlace() throws IOException {
    Path out = out();
    if (out.getFileName().toString().contains(".")) {
      Files.createDirectories(out.getParent());
      Files.writeString(out, "there already");
    } else {
      Files.createDirectories(out);
      Files.writeString(out.resolve("there-already"), "x");
    }
    assertThatThrownBy(this::export).isInstanceOf(IOException.class);
  }

  private String flags(String letters) {
    return keepsFlags() ? Flags.normalize(letters) : "";
  }

  private static String text(byte[] content) {
    return new String(content, StandardCharsets.ISO_8859_1);
  }
}
