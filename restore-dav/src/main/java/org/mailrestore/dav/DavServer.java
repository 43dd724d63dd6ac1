package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A DAV server as the restore sees it: its base URL, the admin's client, and where each user's
 * collections go (its {@link DavHomes}).
 */
final class DavServer {

  private final URI base;
  private final DavClient client;
  private final DavHomes homes;
  private final boolean meetingsAllowed;

  /** Whether the server schedules, asked once (null: not yet). */
  private volatile Boolean schedules;

  /**
   * @param meetingsAllowed whether events with attendees are written even where the server
   *     schedules ({@code --dav-scheduling allow})
   */
  DavServer(URI base, DavClient client, DavHomes homes, boolean meetingsAllowed) {
    this.base = base;
    this.client = client;
    this.homes = homes;
    this.meetingsAllowed = meetingsAllowed;
  }

  /**
   * Why a meeting (a calendar object with attendees) must not be written, or null when it may. A
   * server that schedules (RFC 6638, as Cyrus does unless {@code caldav_allowscheduling: off})
   * sends the attendees of what is written invitations, as if the meeting were new: a restore would
   * mail every attendee of every meeting again.
   */
  String meetingRefusal(int attendees) throws IOException {
    if (meetingsAllowed || !homes.writesAreScheduled()) {
      return null;
    }
    Boolean s = schedules;
    if (s == null) {
      s = client.capabilities(homes.schedulingProbe()).contains("calendar-auto-schedule");
      schedules = s;
    }
    if (!s) {
      return null;
    }
    return "the DAV server schedules (OPTIONS "
        + homes.schedulingProbe()
        + " lists calendar-auto-schedule): writing this meeting would send its "
        + attendees
        + " attendee(s) an invitation again. Turn scheduling off while restoring (Cyrus:"
        + " caldav_allowscheduling: off in imapd.conf) and run the restore again, or give"
        + " --dav-scheduling allow to write meetings anyway";
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

  /** Where each user's collections are, and how they are made. */
  DavHomes homes() {
    return homes;
  }

  /** Checks the server answers the admin (its base is there and readable). */
  void check() throws IOException {
    if (!client.exists(base)) {
      throw new IOException("the DAV server " + base + " has nothing at its path (404)");
    }
  }
}
