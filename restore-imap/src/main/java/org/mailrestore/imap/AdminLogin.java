package org.mailrestore.imap;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

/**
 * How the restore logs in as each user without their password: an administrator (a Dovecot master
 * user, a Cyrus admin, a Zimbra admin) who acts for the user.
 *
 * @param method {@link Method#AUTHZID}: SASL PLAIN with the user as authorization identity
 *     (Dovecot, Cyrus, Zimbra); {@link Method#SEPARATOR}: LOGIN as {@code user<separator>admin}
 *     (Dovecot's {@code auth_master_user_separator})
 */
record AdminLogin(String admin, String password, Method method, String separator) {

  enum Method {
    AUTHZID,
    SEPARATOR;

    static Method parse(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT));
    }
  }

  /** The SASL PLAIN initial response acting for {@code user}. */
  String plainResponse(String user) {
    byte[] raw = (user + "\0" + admin + "\0" + password).getBytes(StandardCharsets.UTF_8);
    return Base64.getEncoder().encodeToString(raw);
  }

  /** The LOGIN user name acting for {@code user}. */
  String separatorLogin(String user) {
    return user + separator + admin;
  }

  @Override
  public String toString() {
    return "AdminLogin[" + admin + ", " + method + "]"; // never the password
  }
}
