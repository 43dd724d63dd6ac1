package org.mailrestore.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the REST service is and how to log in to it. */
final class ApiOptions {

  @Option(
      names = "--url",
      description = "The service (default: MAILRESTORE_URL, else http://localhost:8080)")
  String url;

  @Option(
      names = "--token-file",
      description =
          "A file holding an API token (never the token on the command line). Default: the token"
              + " in MAILRESTORE_TOKEN, the file in MAILRESTORE_TOKEN_FILE, else the token the"
              + " service generated in ./mailrestore-data/admin-token")
  Path tokenFile;

  @Option(names = "--json", description = "Print the service's JSON answer (for scripts)")
  boolean json;

  /** With {@code --json}, prints the service's answer as it came and returns true. */
  boolean printJson(ApiClient.Answer answer) {
    if (json) {
      System.out.println(answer.body());
    }
    return json;
  }

  ApiClient client() throws IOException {
    String base = url != null ? url : System.getenv().getOrDefault("MAILRESTORE_URL", "");
    if (base.isBlank()) {
      base = "http://localhost:8080";
    }
    return new ApiClient(base, token());
  }

  private String token() throws IOException {
    if (tokenFile != null) {
      return read(tokenFile);
    }
    String token = System.getenv("MAILRESTORE_TOKEN");
    if (token != null && !token.isBlank()) {
      return token.strip();
    }
    String file = System.getenv("MAILRESTORE_TOKEN_FILE");
    if (file != null && !file.isBlank()) {
      return read(Path.of(file));
    }
    // What a service started here with the default data directory generated for its admin.
    Path generated = Path.of("mailrestore-data", "admin-token");
    return Files.isReadable(generated) ? read(generated) : null;
  }

  private static String read(Path file) throws IOException {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException("cannot read the token file " + file);
    }
    exposure(file).ifPresent(w -> System.err.println("mailrestore: warning: " + w));
    return Files.readString(file, StandardCharsets.UTF_8).strip();
  }

  /** A warning when other users may read the token file (a token is a password). */
  static java.util.Optional<String> exposure(Path file) throws IOException {
    java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions;
    try {
      permissions = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return java.util.Optional.empty(); // not a POSIX file system: nothing to say
    }
    boolean exposed =
        permissions.contains(java.nio.file.attribute.PosixFilePermission.GROUP_READ)
            || permissions.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
    return exposed
        ? java.util.Optional.of(
            "the token file "
                + file
                + " can be read by other users; restrict it: chmod 600 "
                + file)
        : java.util.Optional.empty();
  }
}
