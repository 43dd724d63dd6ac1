package org.mailrestore.restore;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** Where the backup to restore is. Credentials never appear here: S3 names a configured profile. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(value = BackupSource.Local.class, name = "local"),
  @JsonSubTypes.Type(value = BackupSource.S3.class, name = "s3")
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
}
