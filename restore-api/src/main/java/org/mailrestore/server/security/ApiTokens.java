package org.mailrestore.server.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.server.ServerSettings;
import org.mailrestore.server.ServerSettings.SecuritySettings.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The API tokens the service accepts, known only by their SHA-256. When no user and no token is
 * configured, one admin token is generated and written to {@code <data-dir>/admin-token} (readable
 * by its owner only); the log names the file, never the token.
 */
@Component
public class ApiTokens {

  private static final Logger LOG = LoggerFactory.getLogger(ApiTokens.class);

  /** Who a token belongs to. */
  public record Holder(String name, Role role) {}

  private final Map<String, Holder> bySha256 = new HashMap<>();

  ApiTokens(ServerSettings settings) {
    for (ServerSettings.SecuritySettings.Token t : settings.security().tokens()) {
      bySha256.put(t.sha256().toLowerCase(Locale.ROOT), new Holder(t.name(), t.role()));
    }
    if (bySha256.isEmpty() && settings.security().users().isEmpty()) {
      String token = generate(settings.dataDir().resolve("admin-token"));
      bySha256.put(sha256(token), new Holder("generated-admin", Role.ADMIN));
    }
  }

  /** The holder of a token, compared in constant time. */
  public Optional<Holder> find(String token) {
    byte[] digest = HexFormat.of().parseHex(sha256(token));
    for (Map.Entry<String, Holder> e : bySha256.entrySet()) {
      if (MessageDigest.isEqual(digest, HexFormat.of().parseHex(e.getKey()))) {
        return Optional.of(e.getValue());
      }
    }
    return Optional.empty();
  }

  /** The SHA-256 of a token, as {@code mailrestore.security.tokens[].sha256} holds it. */
  public static String sha256(String token) {
    return BlobDigest.ofContent(token.getBytes(StandardCharsets.UTF_8)).hex();
  }

  private static String generate(Path file) {
    try {
      Files.createDirectories(file.getParent());
      String token;
      if (Files.isRegularFile(file)) {
        token = Files.readString(file, StandardCharsets.UTF_8).strip();
      } else {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
        try {
          Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
          // Not a POSIX file system: the directory's permissions apply.
        }
      }
      LOG.warn(
          "no API users or tokens are configured: an admin token is in {}"
              + " (send it as 'Authorization: Bearer <token>'; configure"
              + " mailrestore.security.* for real use)",
          file.toAbsolutePath());
      return token;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the generated admin token to " + file, e);
    }
  }
}
