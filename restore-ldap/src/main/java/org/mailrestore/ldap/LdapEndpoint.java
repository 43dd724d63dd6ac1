package org.mailrestore.ldap;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where the directory is: {@code ldap://host[:port]} (389) or {@code ldaps://host[:port]} (636),
 * with nothing else in the URL (the base DN and the credentials are given apart).
 */
record LdapEndpoint(String host, int port, boolean implicitTls) {

  static boolean looksLikeOne(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    return v.startsWith("ldap://") || v.startsWith("ldaps://");
  }

  /**
   * @throws IllegalArgumentException saying what is wrong with the URL
   */
  static LdapEndpoint parse(String value) {
    URI uri;
    try {
      uri = new URI(value.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("ldap") && !scheme.equals("ldaps")) {
      throw new IllegalArgumentException("must be ldap://host[:port] or ldaps://host[:port]");
    }
    if (uri.getHost() == null || uri.getHost().isBlank()) {
      throw new IllegalArgumentException("names no host: ldap://host[:port]");
    }
    if (uri.getUserInfo() != null) {
      throw new IllegalArgumentException(
          "must not hold credentials: give them in MAILRESTORE_LDAP_BIND_DN and"
              + " MAILRESTORE_LDAP_PASSWORD");
    }
    if ((uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/"))
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "must be only ldap://host[:port]: give the base DN with --ldap-base-dn");
    }
    boolean tls = scheme.equals("ldaps");
    int port = uri.getPort() < 0 ? (tls ? 636 : 389) : uri.getPort();
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range");
    }
    return new LdapEndpoint(uri.getHost(), port, tls);
  }

  @Override
  public String toString() {
    return (implicitTls ? "ldaps://" : "ldap://") + host + ":" + port;
  }
}
