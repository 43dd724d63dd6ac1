package org.mailrestore.restore;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.mailrestore.maildir.MaildirLayout;
import org.mailrestore.maildir.MaildirNames;

/** Where the backup to restore is. Credentials never appear here: S3 names a configured profile. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(value = BackupSource.Local.class, name = "local"),
  @JsonSubTypes.Type(value = BackupSource.S3.class, name = "s3"),
  @JsonSubTypes.Type(value = BackupSource.Maildir.class, name = "maildir")
})
public sealed interface BackupSource {

  /** A backup in a directory of this machine. */
  record Local(String path) implements BackupSource {}

  /**
   * A backup in a bucket.
   *
   * @param profile the name of an S3 profile in the service's configuration (endpoint, credentials,
   *     region)
   */
  record S3(String profile, String bucket, String prefix) implements BackupSource {}

  /**
   * A tree of mailboxes on this machine, one directory per user, read as a backup.
   *
   * @param domain the domain the accounts are created in ({@code <directory>@<domain>})
   * @param layout {@code auto}, {@code maildir} or {@code plain} (see MaildirLayout)
   */
  record Maildir(String path, String domain, String layout) implements BackupSource {
    public Maildir {
      if (path == null || path.isBlank()) {
        throw new IllegalArgumentException("a Maildir source needs a path");
      }
      if (!MaildirNames.isDomainName(domain)) {
        throw new IllegalArgumentException(
            "a Maildir source needs the domain of its accounts (such as example.org), not \""
                + domain
                + "\"");
      }
      layout = MaildirLayout.parse(layout == null ? "auto" : layout).wireName();
    }
  }
}
