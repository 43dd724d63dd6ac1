package org.mailrestore.zimbra;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import org.mailrestore.export.ExportFiles;
import org.mailrestore.export.ExportFormat;
import org.mailrestore.export.ExportReport;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.MailSource;

/**
 * Writes accounts out as Zimbra account archives, in Zimbra's own layout, so that {@code zmmailbox
 * postRestURL "//?fmt=tgz"} takes them as its own: {@code --out FILE.tgz} for one account, {@code
 * --out DIRECTORY} for one {@code <address>.tgz} per account. Every message is written byte for
 * byte, its digest checked as it is.
 */
public final class ZimbraTgzExport implements ExportFormat {

  @Override
  public String name() {
    return ZimbraTgzKind.NAME;
  }

  @Override
  public String description() {
    return "Zimbra account archives (.tgz) that zmmailbox postRestURL \"//?fmt=tgz\" imports:"
        + " --out FILE.tgz for one account, --out DIRECTORY for one <address>.tgz per account";
  }

  @Override
  public ExportReport export(MailSource source, List<String> accountIds, Path out)
      throws IOException {
    Path target = out.toAbsolutePath().normalize();
    boolean oneFile =
        ZimbraArchiveSource.addressOf(target.getFileName().toString()) != null
            || target.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".tgz");
    if (oneFile && accountIds.size() != 1) {
      throw new IllegalArgumentException(
          "one archive holds one account: give --out a directory to export "
              + accountIds.size()
              + " accounts");
    }
    Path dir = oneFile ? target.getParent() : ExportFiles.emptyDirectory(target);
    List<String> names = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    long folders = 0;
    long items = 0;
    long bytes = 0;
    long skipped = 0;
    for (String accountId : accountIds) {
      Account account =
          switch (source.account(accountId)) {
            case Parsed.Ok<Account>(Account a, String location) -> a;
            case Parsed.Failed<Account>(String location, String reason) ->
                throw new IOException("account " + accountId + " cannot be read: " + reason);
          };
      Path file = oneFile ? target : dir.resolve(account.name().toLowerCase(Locale.ROOT) + ".tgz");
      ArchiveWriter.Counts counts = write(source, account, file);
      names.add(account.name());
      folders += counts.folders();
      items += counts.items();
      bytes += counts.bytes();
      skipped += counts.skipped();
      problems.addAll(counts.problems());
    }
    return new ExportReport(names, folders, items, bytes, skipped, problems);
  }

  /** Writes one account's archive through a temporary file: whole or not at all. */
  private static ArchiveWriter.Counts write(MailSource source, Account account, Path file)
      throws IOException {
    if (Files.exists(file)) {
      throw new FileAlreadyExistsException(file.toString());
    }
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling(".export-" + file.getFileName() + ".tmp");
    try {
      ArchiveWriter.Counts counts;
      try (OutputStream raw = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16);
          GZIPOutputStream gzip = new GZIPOutputStream(raw, 1 << 16);
          TarWriter tar = new TarWriter(gzip)) {
        counts = new ArchiveWriter(source, account, tar).write();
        tar.finish();
      }
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
      return counts;
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
