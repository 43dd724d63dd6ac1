package org.mailrestore.imap;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The user table a server reads its accounts from (Dovecot's SQL passdb and userdb, for one):
 * {@code --provision sql} inserts the accounts a restore needs. The password column gets the {@code
 * {SSHA512}} hash of 32 random bytes nobody keeps: the account exists and receives its mail, but
 * nobody can log in with a password until an administrator sets one.
 */
final class SqlUsers {

  static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");

  private final String url;
  private final Properties credentials;
  private final String table;
  private final String userColumn;
  private final String passwordColumn;
  private final SecureRandom random = new SecureRandom();

  /**
   * @param table the table, {@code userColumn} and {@code passwordColumn} its columns: checked
   *     identifiers (they are written into SQL)
   */
  SqlUsers(
      String url,
      String user,
      String password,
      String table,
      String userColumn,
      String passwordColumn) {
    for (String identifier : new String[] {table, userColumn, passwordColumn}) {
      if (!IDENTIFIER.matcher(identifier).matches()) {
        throw new IllegalArgumentException("not an SQL identifier: " + identifier);
      }
    }
    this.url = url;
    this.credentials = new Properties();
    if (user != null) {
      credentials.setProperty("user", user);
    }
    if (password != null) {
      credentials.setProperty("password", password);
    }
    this.table = table;
    this.userColumn = userColumn;
    this.passwordColumn = passwordColumn;
  }

  String describe() {
    int q = url.indexOf('?');
    return "table " + table + " of " + (q < 0 ? url : url.substring(0, q));
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url, credentials);
  }

  boolean exists(String login) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement("SELECT 1 FROM " + table + " WHERE " + userColumn + " = ?")) {
      ps.setString(1, login);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** Inserts the user with a locked password, unless it is there already. */
  void create(String login) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT IGNORE INTO "
                    + table
                    + " ("
                    + userColumn
                    + ", "
                    + passwordColumn
                    + ") VALUES (?, ?)")) {
      ps.setString(1, login);
      ps.setString(2, lockedPassword());
      ps.executeUpdate();
    }
  }

  /** {@code {SSHA512}base64(sha512(secret + salt) + salt)} of a secret thrown away. */
  private String lockedPassword() {
    byte[] secret = new byte[32];
    byte[] salt = new byte[8];
    random.nextBytes(secret);
    random.nextBytes(salt);
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-512");
      sha.update(secret);
      sha.update(salt);
      byte[] hash = sha.digest();
      byte[] both = new byte[hash.length + salt.length];
      System.arraycopy(hash, 0, both, 0, hash.length);
      System.arraycopy(salt, 0, both, hash.length, salt.length);
      return "{SSHA512}" + Base64.getEncoder().encodeToString(both);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-512", e);
    }
  }
}
