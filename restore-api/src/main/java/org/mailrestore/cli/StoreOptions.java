package org.mailrestore.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.mailrestore.blob.BlobCompression;
import picocli.CommandLine.Option;

/** Where a local command finds the mailstore: the database and the blob volume. */
final class StoreOptions {

  @Option(
      names = "--jdbc-url",
      required = true,
      description = "The mailstore database, e.g. jdbc:mariadb://127.0.0.1:3306/mailstore")
  String jdbcUrl;

  @Option(
      names = "--db-user",
      defaultValue = "root",
      description = "Database user (default: ${DEFAULT-VALUE})")
  String user;

  @Option(
      names = "--db-password-file",
      description =
          "A file holding the database password. Default: the environment variable"
              + " MAILRESTORE_DB_PASSWORD, else none. Never given on the command line.")
  Path passwordFile;

  @Option(names = "--volume", required = true, description = "The directory blobs are restored to")
  Path volume;

  @Option(
      names = "--volume-name",
      defaultValue = "local",
      description = "The volume's name in the mailstore (default: ${DEFAULT-VALUE})")
  String volumeName;

  @Option(
      names = "--volume-compression",
      defaultValue = "none",
      description = "Compress blobs at rest: none, gzip or zstd (default: ${DEFAULT-VALUE})")
  String compression;

  @Option(
      names = "--volume-compression-threshold",
      defaultValue = "4096",
      description = "Smallest blob, in bytes, that is compressed (default: ${DEFAULT-VALUE})")
  long threshold;

  Mailstore open() throws IOException, SQLException {
    String password = System.getenv().getOrDefault("MAILRESTORE_DB_PASSWORD", "");
    if (passwordFile != null) {
      password = Files.readString(passwordFile).strip();
    }
    return new Mailstore(
        jdbcUrl,
        user,
        password,
        new Mailstore.VolumeSpec(
            volumeName, volume, BlobCompression.parse(compression), threshold));
  }
}
