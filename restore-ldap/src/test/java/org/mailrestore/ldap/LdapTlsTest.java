package org.mailrestore.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.testkit.LocalDaemons;
import org.mailrestore.testkit.SlapdServer;

/**
 * TLS to the directory is verified: ldaps:// and StartTLS reach a slapd whose certificate a private
 * CA signed when that CA is in the trust store given, and are refused without it; StartTLS required
 * of a server that does not offer it is refused, saying so. A wrong bind is refused by name.
 */
class LdapTlsTest {

  @TempDir Path dir;

  @BeforeAll
  static void slapd() {
    assumeTrue(SlapdServer.installed(), "slapd and ldap-utils are not installed: .ci/run does");
  }

  private Path trustStore(SlapdServer slapd) throws IOException {
    Path store = dir.resolve("trust.p12");
    LocalDaemons.run(
        List.of(
            "keytool",
            "-importcert",
            "-noprompt",
            "-storetype",
            "PKCS12",
            "-alias",
            "ca",
            "-file",
            slapd.caCertificate().toString(),
            "-keystore",
            store.toString(),
            "-storepass",
            "changeit"));
    return store;
  }

  private static MailTarget open(String url, String base, Map<String, String> options)
      throws Exception {
    Map<String, String> all = new HashMap<>(options);
    all.put(LdapKind.BASE_DN, base);
    Map<String, String> env = DirectoryBackups.environment();
    env.put(LdapKind.TRUST_STORE_PASSWORD_ENV, "changeit");
    return TargetSpec.of(LdapKind.NAME, url, all)
        .open(new TargetContext(null, null, null, null, env));
  }

  @Test
  void tlsIsVerifiedAgainstTheTrustStoreGiven() throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase("tls");
    String store = trustStore(slapd).toString();
    try (MailTarget t = open(slapd.ldapsUrl(), base, Map.of(LdapKind.TRUST_STORE, store))) {
      assertThat(t.describe()).contains("ldaps://127.0.0.1");
      assertThat(t.provisioning().find("nobody@example.org")).isEmpty();
    }
    try (MailTarget t =
        open(
            slapd.url(),
            base,
            Map.of(LdapKind.TRUST_STORE, store, LdapKind.STARTTLS, "required"))) {
      assertThat(t.provisioning().find("nobody@example.org")).isEmpty();
    }
    assertThatThrownBy(() -> open(slapd.ldapsUrl(), base, Map.of()).close())
        .as("the JDK's CAs do not know the test CA")
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot use " + slapd.ldapsUrl());
    assertThatThrownBy(() -> open(slapd.url(), base, Map.of(LdapKind.STARTTLS, "required")).close())
        .as("StartTLS offered, its certificate not trusted")
        .isInstanceOf(IOException.class)
        .hasMessageContaining("StartTLS failed");
  }

  @Test
  void aWrongBindOrAMissingBaseIsRefusedByName() throws Exception {
    SlapdServer slapd = SlapdServer.get();
    String base = slapd.newBase("bind");
    Map<String, String> env = DirectoryBackups.environment();
    env.put(LdapKind.PASSWORD_ENV, "wrong");
    assertThatThrownBy(() ->
            TargetSpec.of(
                    LdapKind.NAME,
                    slapd.url(),
                    Map.of(LdapKind.BASE_DN, base, LdapKind.STARTTLS, "never"))
                .open(new TargetContext(null, null, null, null, env))
                .close())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("invalid credentials")
        .hasMessageContaining(LdapKind.PASSWORD_ENV);
    assertThatThrownBy(() ->
            open(slapd.url(), "ou=absent," + base, Map.of(LdapKind.STARTTLS, "never")).close())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the base DN ou=absent," + base + " is not in");
  }
}
