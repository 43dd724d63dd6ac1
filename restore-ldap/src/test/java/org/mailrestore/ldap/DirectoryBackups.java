package org.mailrestore.ldap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.mailrestore.backup.generate.BackupGenerator;
import org.mailrestore.backup.generate.GeneratorSpec;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mail.Json;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generated backups for the directory's tests, with what a Zimbra backup records of an account's
 * password: its hash ({@code userPassword}), of a clear password the test keeps to log in with.
 */
final class DirectoryBackups {

  private DirectoryBackups() {}

  /** The clear password of each generated account that got a hash. */
  static String clearPassword(String address) {
    return "pw-" + address.substring(0, address.indexOf('@'));
  }

  static String ssha(String clear) {
    return salted("SHA-1", "{SSHA}", clear);
  }

  static String ssha512(String clear) {
    return salted("SHA-512", "{SSHA512}", clear);
  }

  private static String salted(String algorithm, String scheme, String clear) {
    try {
      byte[] salt = new byte[8];
      new SecureRandom().nextBytes(salt);
      MessageDigest md = MessageDigest.getInstance(algorithm);
      md.update(clear.getBytes(StandardCharsets.UTF_8));
      md.update(salt);
      byte[] digest = md.digest();
      byte[] both = new byte[digest.length + salt.length];
      System.arraycopy(digest, 0, both, 0, digest.length);
      System.arraycopy(salt, 0, both, digest.length, salt.length);
      return scheme + Base64.getEncoder().encodeToString(both);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A small generated backup of its own seed (new accounts and domains for a shared server). */
  static Path generate(Path dir, int accounts) throws IOException {
    return generate(dir, accounts, false);
  }

  /** With shares: grants between the accounts (phase 3), to users, groups and domains. */
  static Path generate(Path dir, int accounts, boolean shares) throws IOException {
    return generate(
        dir.resolve("backup"), UUID.randomUUID().getMostSignificantBits(), accounts, shares);
  }

  private static Path generate(Path backup, long seed, int accounts, boolean shares)
      throws IOException {
    BackupGenerator.generate(
        GeneratorSpec.defaults()
            .withSeed(seed)
            .withAccounts(accounts)
            .withItemsPerAccount(30)
            .withShares(shares),
        backup);
    return backup;
  }

  /** A backup (of the first seed that makes one) with at least one grant to a user. */
  static Path generateWithUserGrant(Path dir, int accounts) throws IOException {
    for (long seed = 1; seed <= 50; seed++) {
      Path backup = generate(dir.resolve("backup-" + seed), seed, accounts, true);
      if (!userGrantees(backup).isEmpty()) {
        return backup;
      }
    }
    throw new IllegalStateException("no seed from 1 to 50 makes a grant to a user");
  }

  /** The addresses the backup's grants give rights to (grants to users). */
  static List<String> userGrantees(Path backup) throws IOException {
    List<String> grantees = new ArrayList<>();
    try (Stream<Path> files = Files.walk(backup)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("shares.json")).toList()) {
        for (var grant : Json.MAPPER.readTree(f.toFile()).path("grants")) {
          if (grant.path("granteeType").asString("").equals("usr")) {
            grantees.add(grant.path("granteeName").asString());
          }
        }
      }
    }
    return grantees;
  }

  /** The account files of a backup, by address, in the order of their addresses. */
  static Map<String, Path> accountFiles(Path backup) throws IOException {
    Map<String, Path> files = new java.util.TreeMap<>();
    try (Stream<Path> dirs = Files.list(backup.resolve("accounts"))) {
      for (Path d : dirs.toList()) {
        Path json = d.resolve("account.json");
        ObjectNode node = (ObjectNode) Json.MAPPER.readTree(json.toFile());
        if (!node.path("system").asBoolean(false)) {
          files.put(node.get("name").asString(), json);
        }
      }
    }
    return files;
  }

  /** Rewrites one account's record. */
  static void edit(Path accountJson, UnaryOperator<ObjectNode> change) throws IOException {
    ObjectNode node = (ObjectNode) Json.MAPPER.readTree(accountJson.toFile());
    Json.PRETTY.writeValue(accountJson.toFile(), change.apply(node));
  }

  /**
   * Gives the backup's accounts password hashes: the first {SSHA}, the second {SSHA512}, the third
   * {CRYPT} (made by Dovecot's own doveadm when it is installed, else none); the last none.
   */
  static List<String> withPasswords(Path backup) throws IOException {
    List<String> addresses = new ArrayList<>(accountFiles(backup).keySet());
    Map<String, String> hashes = new HashMap<>();
    for (int i = 0; i < addresses.size() - 1; i++) {
      String a = addresses.get(i);
      String hash =
          switch (i % 3) {
            case 0 -> ssha(clearPassword(a));
            case 1 -> ssha512(clearPassword(a));
            default -> crypt(clearPassword(a));
          };
      if (hash != null) {
        hashes.put(a, hash);
      }
    }
    for (Map.Entry<String, Path> f : accountFiles(backup).entrySet()) {
      String hash = hashes.get(f.getKey());
      if (hash != null) {
        edit(
            f.getValue(),
            n -> {
              ((ObjectNode) n.get("attributes")).put("userPassword", hash);
              return n;
            });
      }
    }
    return addresses;
  }

  /** A SHA-512 crypt hash as {CRYPT}, from doveadm pw; null without Dovecot. */
  static String crypt(String clear) {
    if (!Files.isExecutable(Path.of("/usr/bin/doveadm"))) {
      return null;
    }
    try {
      String out =
          org.mailrestore.testkit.LocalDaemons.output(
                  List.of("/usr/bin/doveadm", "pw", "-s", "SHA512-CRYPT", "-p", clear), null)
              .strip();
      return "{CRYPT}" + out.substring(out.indexOf('}') + 1);
    } catch (IOException e) {
      return null;
    }
  }

  static TargetSpec directory(String url, String base, String schema, Map<String, String> more) {
    Map<String, String> options = new HashMap<>(more);
    options.put(LdapKind.BASE_DN, base);
    options.put(LdapKind.SCHEMA, schema);
    options.put(LdapKind.STARTTLS, "never");
    return TargetSpec.of(LdapKind.NAME, url, options);
  }

  static Map<String, String> environment() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put(LdapKind.BIND_DN_ENV, org.mailrestore.testkit.SlapdServer.ROOT_DN);
    env.put(LdapKind.PASSWORD_ENV, org.mailrestore.testkit.SlapdServer.ROOT_PASSWORD);
    return env;
  }
}
