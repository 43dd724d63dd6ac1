package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.mailrestore.dav.DavClient.Answer;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.destination.ProvisioningRefusedException;

/**
 * A home per user under the server's path, named by a template ({@code --dav-home}): Radicale's
 * layout ({@code {address}/}), where its rights file lets the administrator write. Homes and
 * collections are made with {@code MKCOL} and {@code MKCALENDAR}.
 */
final class TemplateHomes implements DavHomes {

  /** Radicale's layout: a user's collections under {@code /<user>/}. */
  static final String DEFAULT = "{address}/";

  private final URI base;
  private final DavClient client;
  private final String template;

  TemplateHomes(URI base, DavClient client, String template) {
    this.base = base;
    this.client = client;
    this.template = template;
  }

  @Override
  public URI at(String address, CollectionKind kind, String href) {
    return home(address).resolve(href);
  }

  @Override
  public boolean exists(String address) throws IOException {
    return client.exists(home(address));
  }

  @Override
  public void make(String address) throws IOException {
    URI home = home(address);
    Answer a = client.makeCollection(home);
    if (a.status() == 409) {
      // A home deeper than one level (--dav-home users/{address}/): its parents first.
      for (URI parent : between(home)) {
        client.makeCollection(parent);
      }
      a = client.makeCollection(home);
    }
    if (!a.ok() && a.status() != 405) {
      throw new ProvisioningRefusedException(
          "the DAV server refused to make the home "
              + home
              + " of "
              + address
              + " ("
              + a.status()
              + ": "
              + DavClient.brief(a.body())
              + "): let the administrator write into users' collections (docs/dav-target.md),"
              + " or set --dav-home to where the server keeps them");
    }
  }

  @Override
  public void make(String address, CollectionRow row) throws IOException {
    URI uri = at(address, row.kind(), row.href());
    Answer a =
        switch (row.kind()) {
          case ADDRESSBOOK -> client.makeAddressBook(uri, row.name());
          case CALENDAR ->
              client.makeCalendar(uri, row.name(), "VEVENT", DavCollections.color(row.color()));
          case TASKS ->
              client.makeCalendar(uri, row.name(), "VTODO", DavCollections.color(row.color()));
          case NONE -> throw new IllegalStateException("no collection to make");
        };
    // A collection there already answers 405 (RFC 4918) or, to MKCALENDAR, 409 with the
    // precondition resource-must-be-null (Radicale).
    boolean there =
        a.status() == 405 || (a.status() == 409 && a.body().contains("resource-must-be-null"));
    if (!a.ok() && !there) {
      throw DavCollections.refused(uri, row, a);
    }
  }

  @Override
  public void empty(String address) throws IOException {
    for (DavClient.Collection c : client.collections(home(address))) {
      Answer a = client.delete(c.href());
      if (!a.ok() && a.status() != 404) {
        throw new IOException(
            "the DAV server refused to delete "
                + c.href()
                + " ("
                + a.status()
                + ": "
                + DavClient.brief(a.body())
                + ")");
      }
    }
  }

  @Override
  public URI schedulingProbe() {
    return base;
  }

  @Override
  public String describe() {
    return base.toString();
  }

  /** The home of a user's collections. */
  URI home(String address) {
    int at = address.lastIndexOf('@');
    String local = at < 0 ? address : address.substring(0, at);
    String domain = at < 0 ? "" : address.substring(at + 1);
    String path =
        template
            .replace("{address}", segment(address))
            .replace("{local}", segment(local))
            .replace("{domain}", segment(domain));
    if (!path.endsWith("/")) {
      path += "/";
    }
    return base.resolve(path.startsWith("/") ? path.substring(1) : path);
  }

  /** The collections between the server's base and a home, outermost first. */
  private List<URI> between(URI home) {
    List<URI> parents = new ArrayList<>();
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

  /** Percent-encodes what a path segment cannot hold as it is; keeps {@code @}. */
  static String segment(String s) {
    StringBuilder b = new StringBuilder();
    for (byte c : s.getBytes(StandardCharsets.UTF_8)) {
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
