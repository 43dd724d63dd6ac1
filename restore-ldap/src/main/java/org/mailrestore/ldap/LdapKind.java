package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetKind;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.kind.FieldProblems;
import org.mailrestore.kind.KindOption;
import org.mailrestore.kind.KindSecrets;

/**
 * An LDAP directory that phase 1 provisions ({@code --provision ldap://host:port} beside the target
 * that takes the mail): see docs/ldap-provisioning.md. The bind DN and its password come from the
 * environment ({@code MAILRESTORE_LDAP_BIND_DN}, {@code MAILRESTORE_LDAP_PASSWORD}) or a password
 * file, never from the target spec, which is stored with the operation.
 */
public final class LdapKind implements TargetKind {

  public static final String NAME = "ldap";
  public static final String BIND_DN_ENV = "MAILRESTORE_LDAP_BIND_DN";
  public static final String PASSWORD_ENV = "MAILRESTORE_LDAP_PASSWORD";
  public static final String TRUST_STORE_PASSWORD_ENV = "MAILRESTORE_LDAP_TRUST_STORE_PASSWORD";

  static final String BASE_DN = "base-dn";
  static final String SCHEMA = "schema";
  static final String STARTTLS = "starttls";
  static final String TRUST_STORE = "trust-store";
  static final String PASSWORD_FILE = "password-file";
  static final String MAX_VALUE_SIZE = "max-value-size";
  static final String CONNECTIONS = "connections";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "an LDAP directory for accounts, aliases and lists (--provision ldap://host:port or"
        + " ldaps://..., beside the target for the mail; bind from MAILRESTORE_LDAP_BIND_DN and"
        + " MAILRESTORE_LDAP_PASSWORD)";
  }

  @Override
  public KindOption location() {
    return KindOption.optional(
            "provision",
            "The directory phase 1 writes accounts to: ldap://host[:port] or ldaps://host[:port]")
        .withFlag("--provision");
  }

  @Override
  public boolean takesLocation(String value) {
    return LdapEndpoint.looksLikeOne(value);
  }

  @Override
  public List<KindOption> options() {
    return List.of(
        KindOption.optional(
            BASE_DN,
            "The DN the entries go under (dc=example,dc=org); required but with --ldap-schema"
                + " zimbra, where none means the directory's root, as in Zimbra's own"),
        KindOption.choice(
            SCHEMA,
            "The entries written: inetorgperson (inetOrgPerson accounts with mailLocalAddress"
                + " aliases, nisMailAlias lists) or zimbra (Zimbra's own object classes)",
            InetOrgPersonLayout.NAME,
            List.of(InetOrgPersonLayout.NAME, ZimbraLayout.NAME)),
        KindOption.choice(
            STARTTLS,
            "StartTLS on ldap://: when-offered, required, or never (loopback and tests only)",
            "when-offered",
            List.of("when-offered", "required", "never")),
        KindOption.optional(
            TRUST_STORE,
            "A trust store (PKCS12) with the CA of the directory's certificate (password in"
                + " MAILRESTORE_LDAP_TRUST_STORE_PASSWORD)"),
        KindOption.optional(
            PASSWORD_FILE, "A file holding the bind password (else MAILRESTORE_LDAP_PASSWORD)"),
        KindOption.optional(
                MAX_VALUE_SIZE,
                "The largest attribute value written, in bytes; an account with a larger one fails")
            .withDefault("1048576"),
        KindOption.optional(CONNECTIONS, "Connections to the directory").withDefault("4"));
  }

  @Override
  public void check(TargetSpec spec, FieldProblems problems) {
    if (spec.location() != null) {
      try {
        LdapEndpoint.parse(spec.location());
      } catch (IllegalArgumentException e) {
        problems.add("target.location", e.getMessage());
      }
    }
    if (spec.option(BASE_DN) == null) {
      if (!ZimbraLayout.NAME.equals(spec.option(SCHEMA))) {
        problems.add(
            "target.options." + BASE_DN,
            "is required: the DN the entries go under (dc=example,dc=org)");
      }
    } else {
      try {
        new DN(spec.option(BASE_DN));
      } catch (LDAPException e) {
        problems.add("target.options." + BASE_DN, "is not a DN: " + e.getExceptionMessage());
      }
    }
    number(spec, MAX_VALUE_SIZE, 64, 64 * 1024 * 1024, problems);
    number(spec, CONNECTIONS, 1, 64, problems);
  }

  private static void number(
      TargetSpec spec, String option, int min, int max, FieldProblems problems) {
    try {
      int n = Integer.parseInt(spec.option(option));
      if (n < min || n > max) {
        problems.add("target.options." + option, "must be between " + min + " and " + max);
      }
    } catch (NumberFormatException e) {
      problems.add("target.options." + option, "must be a number");
    }
  }

  @Override
  public String describe(TargetSpec spec) {
    return "LDAP directory " + spec.location() + " (" + spec.option(SCHEMA) + ")";
  }

  @Override
  public MailTarget open(TargetSpec spec, TargetContext context) throws IOException {
    if (spec.location() == null) {
      throw new IOException("an LDAP directory needs its URL: --provision ldap://host:port");
    }
    Map<String, String> env = context.environment();
    String bindDn = env.get(BIND_DN_ENV);
    if (bindDn == null || bindDn.isBlank()) {
      throw new IOException(
          "an LDAP directory needs the DN to bind as in the environment variable " + BIND_DN_ENV);
    }
    String password;
    try {
      password =
          KindSecrets.password(
              spec.option(PASSWORD_FILE), env, PASSWORD_ENV, "the bind", "--ldap-password-file");
    } catch (IOException e) {
      throw new IOException("an LDAP directory " + e.getMessage(), e);
    }
    Directory directory =
        Directory.connect(
            LdapEndpoint.parse(spec.location()),
            Directory.StartTls.parse(spec.option(STARTTLS)),
            KindSecrets.tls(spec.option(TRUST_STORE), env.get(TRUST_STORE_PASSWORD_ENV)),
            bindDn,
            password,
            Integer.parseInt(spec.option(CONNECTIONS)));
    try {
      String baseDn = spec.option(BASE_DN);
      DN base = baseDn == null ? DN.NULL_DN : new DN(baseDn);
      SchemaRoom room = new SchemaRoom(directory.schema());
      int max = Integer.parseInt(spec.option(MAX_VALUE_SIZE));
      Layout layout =
          ZimbraLayout.NAME.equals(spec.option(SCHEMA))
              ? new ZimbraLayout(base, room, max)
              : new InetOrgPersonLayout(base, room, max);
      var missing = layout.missingFromSchema();
      if (missing.isPresent()) {
        throw new IOException(
            directory.describe()
                + " cannot hold "
                + layout.name()
                + " entries: its schema lacks "
                + missing.get());
      }
      LdapTarget target = new LdapTarget(directory, layout);
      target.check();
      return target;
    } catch (IOException | LDAPException | RuntimeException e) {
      directory.close();
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
  }
}
