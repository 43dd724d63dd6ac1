package org.mailrestore.backup;

import java.time.Instant;

/**
 * The contents of {@code backup.json}: what the backup is and which format it uses.
 *
 * @param serverId the mail server the backup was taken from
 * @param createdAt when the backup was taken (the latest instant any revision can describe)
 */
public record BackupManifest(
    String format, FormatVersion version, String serverId, Instant createdAt, String description) {

  public static final String FORMAT_NAME = "mailrestore-backup";

  public static BackupManifest current(String serverId, Instant createdAt, String description) {
    return new BackupManifest(FORMAT_NAME, FormatVersion.CURRENT, serverId, createdAt, description);
  }
}
