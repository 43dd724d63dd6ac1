package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A DAV server as the restore sees it: its base URL, the admin's client, and where each user's
 * collections go (the home template, relative to the base).
 */
final class DavServer {

  /** Radicale's layout: a user's collections under {@code /<user>/}. */
  static final String DEFAULT_HOME = "{address}/";

  private final URI base;
  private final DavClient client;
  private final String homeTemplate;

  DavServer(URI base, DavClient client, String homeTemplate) {
    this.base = base;
    this.client = client;
    this.homeTemplate = homeTemplate;
  }

  /** Whether a {@code --target} value names a DAV server (rather than an IMAP one). */
  static boolean looksLikeOne(String value) {
    String v = value.toLowerCase(Locale.ROOT);
    return v.startsWith("dav://") || v.startsWith("davs://");
  }

  /** The HTTP(S) URL of a {@code dav://} or {@code davs://} location, ending in a slash. */
  static URI base(String location) {
    URI uri;
    try {
      uri = new URI(location);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("dav") && !scheme.equals("davs")) {
      throw new IllegalArgumentException(
          "must start with dav:// or davs:// (HTTPS), not " + location);
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("names no host: " + location);
    }
    if (uri.getUserInfo() != null) {
      throw new IllegalArgumentException(
          "must not hold credentials: give them in MAILRESTORE_DAV_USER and"
              + " MAILRESTORE_DAV_PASSWORD, or --dav-password-file");
    }
    if (uri.getQuery() != null || uri.getFragment() != null) {
      throw new IllegalArgumentException("must name only a host, a port and a path: " + location);
    }
    String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
    if (!path.endsWith("/")) {
      path += "/";
    }
    try {
      return new URI(
          scheme.equals("davs") ? "https" : "http",
          null,
          uri.getHost(),
          uri.getPort(),
          path,
          null,
          null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("is not a URL: " + e.getReason());
    }
  }

  DavClient client() {
    return client;
  }

  String describe() {
    return base.toString();
  }

  /** The home of a user's collections. */
  URI home(String address) {
    int at = address.lastIndexOf('@');
    String local = at < 0 ? address : address.substring(0, at);
    String domain = at < 0 ? "" : address.substring(at + 1);
    String path =
        homeTemplate
            .replace("{address}", segment(address))
            .replace("{local}", segment(local))
            .replace("{domain}", segment(domain));
    if (!path.endsWith("/")) {
      path += "/";
    }
    return base.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  /** The collections between the server's base and a home, outermost first. */
  java.util.List<URI> between(URI home) {
    java.util.List<URI> parents = new java.util.ArrayList<>();
    String rest = home.getRawPath().substring(base.getRawPath().length());
    String[] segments = rest.split("/");
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < segments.length - 1; i++) {
      if (!segments[i].isEmpty()) {
        path.append(segments[i]).append('/');
        parents.add(base.resolve(path.toString()));
      }
    }
    return parents;
  }

  /** Checks the server answers the admin (its base is there and readable). */
  void check() throws IOException {
    if (!client.exists(base)) {
      throw new IOException("the DAV server " + base + " has nothing at its path (404)");
    }
  }

  /** Percent-encodes what a path segment cannot hold as it is; keeps {@code @}. */
  private static String segment(String s) {
    StringBuilder b = new StringBuilder();
    for (byte c : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      int u = c & 0xff;
      if ((u >= 'a' && u <= 'z')
          || (u >= 'A' && u <= 'Z')
          || (u >= '0' && u <= '9')
          || "-._~@+".indexOf(u) >= 0) {
        b.append((char) u);
      } else {
        b.append('%').append(String.format("%02X", u));
      }
    }
    return b.toString();
  }
}
