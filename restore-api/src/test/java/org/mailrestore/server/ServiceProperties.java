package org.mailrestore.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.testkit.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The settings a test gives the service it starts: its database, its files, its tokens. */
final class ServiceProperties {

  private ServiceProperties() {}

  static void register(
      DynamicPropertyRegistry registry, TestDatabase database, Path dir, Path allowedRoot) {
    registry.add("spring.datasource.url", database::jdbcUrl);
    registry.add("spring.datasource.username", () -> database.server().user());
    registry.add("spring.datasource.password", () -> database.server().password());
    registry.add("mailrestore.data-dir", () -> dir.resolve("data").toString());
    registry.add("mailrestore.sources.allowed-roots[0]", allowedRoot::toString);
  }

  /** An API token (its digest configured, as in production) with a role. */
  static void token(
      DynamicPropertyRegistry registry, int index, String name, String token, String role) {
    String prefix = "mailrestore.security.tokens[" + index + "].";
    registry.add(prefix + "name", () -> name);
    registry.add(
        prefix + "sha256",
        () -> BlobDigest.ofContent(token.getBytes(StandardCharsets.UTF_8)).hex());
    registry.add(prefix + "role", () -> role);
  }
}
