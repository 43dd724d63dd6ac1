package org.mailrestore.cli;

import java.nio.file.Path;
import org.mailrestore.restore.BackupSource;
import org.mailrestore.restore.storage.Volumes;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** What to restore from: a backup (a directory or s3://), or a tree of Maildir mailboxes. */
final class SourceOptions {

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Where where;

  static final class Where {
    @Option(names = "--backup", description = "A backup: a directory, or s3://bucket/prefix")
    String backup;

    @Option(
        names = "--maildir",
        description =
            "A tree of mailboxes instead of a backup: one directory per user, each becoming"
                + " <directory>@<--maildir-domain>")
    Path maildir;
  }

  @Option(
      names = "--s3-profile",
      defaultValue = "default",
      description =
          "The S3 profile of an s3:// backup (MAILRESTORE_S3_<PROFILE>_*; default: ${DEFAULT-VALUE})")
  String profile;

  @Option(
      names = "--maildir-domain",
      description = "With --maildir: the domain of the accounts (required)")
  String maildirDomain;

  @Option(
      names = "--maildir-layout",
      defaultValue = "auto",
      description =
          "With --maildir: maildir (cur/new, .Folder dirs), plain (a file per message in nested"
              + " folders, as the Enron corpus) or auto, per user (default: ${DEFAULT-VALUE})")
  String maildirLayout;

  /** Whether a source was given (a resumed restore has its own). */
  boolean given() {
    return where != null;
  }

  BackupSource source() {
    if (where == null) {
      throw new IllegalArgumentException("name what to restore from: --backup or --maildir");
    }
    if (where.maildir != null) {
      if (maildirDomain == null) {
        throw new IllegalArgumentException(
            "--maildir needs --maildir-domain (such as example.org)");
      }
      return new BackupSource.Maildir(
          where.maildir.toAbsolutePath().normalize().toString(), maildirDomain, maildirLayout);
    }
    String text = where.backup;
    if (text.startsWith("s3://")) {
      var location = Volumes.parseS3(text);
      return new BackupSource.S3(profile, location.bucket(), location.prefix());
    }
    return new BackupSource.Local(Path.of(text).toAbsolutePath().normalize().toString());
  }
}
