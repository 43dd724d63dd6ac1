package org.mailrestore.imap;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import javax.net.ssl.SSLContext;

/**
 * Where the server is and how to reach it safely.
 *
 * @param implicitTls {@code imaps://}: TLS from the first byte
 * @param startTls what to do on {@code imap://} when the server offers STARTTLS or not
 * @param tls the trust to verify the server's certificate with (the JDK's, or a trust store)
 */
record ImapEndpoint(
    String host,
    int port,
    boolean implicitTls,
    StartTls startTls,
    SSLContext tls,
    int connectTimeoutMillis,
    int readTimeoutMillis) {

  /** STARTTLS on a plain {@code imap://} connection. */
  enum StartTls {
    /** Upgrade when the server offers it; a failed upgrade is an error, never a fallback. */
    WHEN_OFFERED,
    /** Refuse a server that does not offer it. */
    REQUIRED,
    /** Stay in clear text (a server on loopback, a test). */
    NEVER;

    static StartTls parse(String value) {
      return valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** The parts of an {@code imap://host[:port]} or {@code imaps://host[:port]} URL. */
  record Address(String host, int port, boolean implicitTls) {

    /**
     * @throws IllegalArgumentException saying what is wrong
     */
    static Address parse(String url) {
      URI uri;
      try {
        uri = new URI(url);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("is not a URL: " + e.getReason());
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("imap") && !scheme.equals("imaps")) {
        throw new IllegalArgumentException(
            "must start with imap:// or imaps:// (TLS from the start), not " + url);
      }
      if (uri.getHost() == null) {
        throw new IllegalArgumentException("names no host: " + url);
      }
      if (uri.getUserInfo() != null) {
        throw new IllegalArgumentException(
            "must not hold credentials: give them in MAILRESTORE_IMAP_USER and"
                + " MAILRESTORE_IMAP_PASSWORD, or --imap-password-file");
      }
      if (uri.getPath() != null && !uri.getPath().isEmpty() && !uri.getPath().equals("/")) {
        throw new IllegalArgumentException("must name only a host and a port: " + url);
      }
      boolean tls = scheme.equals("imaps");
      int port = uri.getPort() > 0 ? uri.getPort() : tls ? 993 : 143;
      return new Address(uri.getHost(), port, tls);
    }
  }
}
