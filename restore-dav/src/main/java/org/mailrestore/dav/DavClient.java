package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The few WebDAV, CardDAV (RFC 6352) and CalDAV (RFC 4791) requests a restore makes, as one user,
 * over {@link HttpClient}: make a collection, put a resource (created only when absent), get one,
 * and list a collection's resources with their data.
 */
public final class DavClient {

  private static final String DAV = "DAV:";
  private static final String CARDDAV = "urn:ietf:params:xml:ns:carddav";
  private static final String CALDAV = "urn:ietf:params:xml:ns:caldav";

  /** What a server answered: its status, its words, and the resource's entity tag. */
  public record Answer(int status, String body, String etag) {

    public boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /** A resource of a collection: where it is, its entity tag, its data. */
  public record Resource(URI href, String etag, String data) {}

  private final HttpClient http;
  private final String authorization;

  public DavClient(HttpClient http, String user, String password) {
    this.http = http;
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** Makes a plain collection (a user's principal on Radicale); 405 when one is there. */
  public Answer makeCollection(URI collection) throws IOException {
    return send(
        request(collection).method("MKCOL", HttpRequest.BodyPublishers.noBody()), collection);
  }

  /** Makes an address book (an extended MKCOL, RFC 5689) named {@code displayName}. */
  public Answer makeAddressBook(URI collection, String displayName) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <mkcol xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
          <set><prop>
            <resourcetype><collection/><C:addressbook/></resourcetype>
            <displayname>%s</displayname>
          </prop></set>
        </mkcol>
        """
            .formatted(DavXml.escape(displayName));
    return send(
        request(collection).header("Content-Type", DavXml.TYPE).method("MKCOL", DavXml.body(body)),
        collection);
  }

  /**
   * Makes a calendar (MKCALENDAR, RFC 4791) for events or to-dos ({@code component} {@code VEVENT}
   * or {@code VTODO}), named {@code displayName}, in {@code color} ({@code #rrggbb}, or null).
   */
  public Answer makeCalendar(URI collection, String displayName, String component, String color)
      throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"
            xmlns:A="http://apple.com/ns/ical/">
          <D:set><D:prop>
            <D:displayname>%s</D:displayname>
            <C:supported-calendar-component-set><C:comp name="%s"/></C:supported-calendar-component-set>
            %s
          </D:prop></D:set>
        </C:mkcalendar>
        """
            .formatted(
                DavXml.escape(displayName),
                DavXml.escape(component),
                color == null
                    ? ""
                    : "<A:calendar-color>" + DavXml.escape(color) + "</A:calendar-color>");
    return send(
        request(collection)
            .header("Content-Type", DavXml.TYPE)
            .method("MKCALENDAR", DavXml.body(body)),
        collection);
  }

  /**
   * Puts a resource. With {@code create}, only when none is there ({@code If-None-Match: *}): a
   * resource already there answers 412 and is left as it is.
   */
  public Answer put(URI resource, String data, String contentType, boolean create)
      throws IOException {
    HttpRequest.Builder b =
        request(resource)
            .header("Content-Type", contentType)
            .PUT(HttpRequest.BodyPublishers.ofString(data, StandardCharsets.UTF_8));
    if (create) {
      b.header("If-None-Match", "*");
    }
    return send(b, resource);
  }

  /** Deletes a resource or a collection; 404 when it is not there. */
  public Answer delete(URI uri) throws IOException {
    return send(request(uri).DELETE(), uri);
  }

  /** A collection under a home: where it is, its name, and whether it holds cards or events. */
  public record Collection(URI href, String displayName, boolean addressBook, boolean calendar) {}

  /**
   * The collections directly under {@code home} (a {@code PROPFIND} of depth 1); empty when the
   * home is not there (404).
   */
  public List<Collection> collections(URI home) throws IOException {
    List<Collection> found = new ArrayList<>();
    for (Collection c : propfindCollections(home, "1")) {
      if (!c.href().getPath().equals(home.getPath())) { // not the home itself
        found.add(c);
      }
    }
    return found;
  }

  /** A collection itself (a {@code PROPFIND} of depth 0); empty when it is not there (404). */
  public Optional<Collection> collection(URI collection) throws IOException {
    return propfindCollections(collection, "0").stream().findFirst();
  }

  /** The collections a {@code PROPFIND} of this depth finds at {@code uri}; none on a 404. */
  private List<Collection> propfindCollections(URI uri, String depth) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:displayname/></D:prop></D:propfind>
        """;
    Answer a =
        send(
            request(uri)
                .header("Content-Type", DavXml.TYPE)
                .header("Depth", depth)
                .method("PROPFIND", DavXml.body(body)),
            uri);
    if (a.status() == 404) {
      return List.of();
    }
    if (a.status() != 207) {
      throw new IOException("PROPFIND " + uri + " answered " + a.status() + ": " + brief(a.body()));
    }
    List<Collection> found = new ArrayList<>();
    NodeList responses = DavXml.parse(a.body()).getElementsByTagNameNS(DAV, "response");
    for (int i = 0; i < responses.getLength(); i++) {
      Element r = (Element) responses.item(i);
      String href = DavXml.text(r, DAV, "href");
      if (href == null || r.getElementsByTagNameNS(DAV, "collection").getLength() == 0) {
        continue;
      }
      found.add(
          new Collection(
              uri.resolve(href),
              DavXml.text(r, DAV, "displayname"),
              r.getElementsByTagNameNS(CARDDAV, "addressbook").getLength() > 0,
              r.getElementsByTagNameNS(CALDAV, "calendar").getLength() > 0));
    }
    return found;
  }

  /**
   * Sets a collection's name and, for a calendar, its colour ({@code #rrggbb}, or null) with a
   * {@code PROPPATCH}: for a collection made some other way than by {@code MKCOL} (Cyrus's, over
   * IMAP).
   */
  public Answer name(URI collection, String displayName, String color) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propertyupdate xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/">
          <D:set><D:prop>
            <D:displayname>%s</D:displayname>
            %s
          </D:prop></D:set>
        </D:propertyupdate>
        """
            .formatted(
                DavXml.escape(displayName),
                color == null
                    ? ""
                    : "<A:calendar-color>" + DavXml.escape(color) + "</A:calendar-color>");
    return send(
        request(collection)
            .header("Content-Type", DavXml.TYPE)
            .method("PROPPATCH", DavXml.body(body)),
        collection);
  }

  /** Whether a collection or resource is there (a {@code PROPFIND} of depth 0). */
  public boolean exists(URI uri) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>
        """;
    Answer a =
        send(
            request(uri)
                .header("Content-Type", DavXml.TYPE)
                .header("Depth", "0")
                .method("PROPFIND", DavXml.body(body)),
            uri);
    if (a.status() == 207) {
      return true;
    }
    if (a.status() == 404) {
      return false;
    }
    throw new IOException("PROPFIND " + uri + " answered " + a.status() + ": " + brief(a.body()));
  }

  /**
   * The DAV capabilities a URL's {@code OPTIONS} lists in its {@code DAV} headers ({@code 1},
   * {@code calendar-access}, {@code calendar-auto-schedule}...), in lower case.
   */
  public java.util.Set<String> capabilities(URI uri) throws IOException {
    HttpResponse<String> r =
        exchange(request(uri).method("OPTIONS", HttpRequest.BodyPublishers.noBody()), uri);
    java.util.Set<String> found = new java.util.TreeSet<>();
    for (String header : r.headers().allValues("DAV")) {
      for (String token : header.split(",")) {
        if (!token.isBlank()) {
          found.add(token.strip().toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
    return found;
  }

  /** Gets a resource; 404 when it is not there. */
  public Answer get(URI resource) throws IOException {
    return send(request(resource).GET(), resource);
  }

  /** Every card of an address book, with its data (an {@code addressbook-query}, RFC 6352). */
  public List<Resource> cards(URI addressBook) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <C:addressbook-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
          <D:prop><D:getetag/><C:address-data content-type="text/vcard" version="4.0"/></D:prop>
        </C:addressbook-query>
        """;
    Answer a =
        send(
            request(addressBook)
                .header("Content-Type", DavXml.TYPE)
                .header("Depth", "1")
                .method("REPORT", DavXml.body(body)),
            addressBook);
    if (a.status() != 207) {
      throw new IOException(
          "REPORT " + addressBook + " answered " + a.status() + ": " + brief(a.body()));
    }
    return resources(addressBook, a.body(), CARDDAV, "address-data");
  }

  /** Every calendar object of a calendar, with its data (a {@code calendar-query}, RFC 4791). */
  public List<Resource> calendarObjects(URI calendar) throws IOException {
    String body =
        """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <D:prop><D:getetag/><C:calendar-data/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"/></C:filter>
        </C:calendar-query>
        """;
    Answer a =
        send(
            request(calendar)
                .header("Content-Type", DavXml.TYPE)
                .header("Depth", "1")
                .method("REPORT", DavXml.body(body)),
            calendar);
    if (a.status() != 207) {
      throw new IOException(
          "REPORT " + calendar + " answered " + a.status() + ": " + brief(a.body()));
    }
    return resources(calendar, a.body(), CALDAV, "calendar-data");
  }

  private static List<Resource> resources(URI base, String multistatus, String ns, String dataName)
      throws IOException {
    List<Resource> found = new ArrayList<>();
    NodeList responses = DavXml.parse(multistatus).getElementsByTagNameNS(DAV, "response");
    for (int i = 0; i < responses.getLength(); i++) {
      Element r = (Element) responses.item(i);
      String href = DavXml.text(r, DAV, "href");
      String data = DavXml.text(r, ns, dataName);
      if (href != null && data != null) {
        found.add(new Resource(base.resolve(href), DavXml.text(r, DAV, "getetag"), data));
      }
    }
    return found;
  }

  private HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", authorization);
  }

  /** Tries of a request answered 5xx: a server briefly busy. */
  private static final int TRIES_ANSWERED = 3;

  /**
   * Tries of a request whose connection dropped: each try may take another kept-alive connection of
   * the pool that the server closed meanwhile (Radicale closes them after 30 s idle; a CI run saw
   * three in a row fail one PUT with "header parser received no bytes").
   */
  private static final int TRIES_DROPPED = 5;

  /**
   * Sends a request; a dropped connection or a 5xx answer is tried again: a server that closed a
   * kept-alive connection (Radicale does) or was briefly busy must not fail an item. Every request
   * here is safe to repeat: a repeated create answers 412 or 405, and is read as "there".
   */
  private Answer send(HttpRequest.Builder b, URI uri) throws IOException {
    HttpResponse<String> r = exchange(b, uri);
    return new Answer(r.statusCode(), r.body(), r.headers().firstValue("ETag").orElse(null));
  }

  private HttpResponse<String> exchange(HttpRequest.Builder b, URI uri) throws IOException {
    HttpRequest request = b.build();
    for (int attempt = 1; ; attempt++) {
      try {
        HttpResponse<String> r =
            http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (r.statusCode() >= 500 && attempt < TRIES_ANSWERED) {
          pause(attempt, uri);
          continue;
        }
        return r;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while talking to " + uri, e);
      } catch (IOException e) {
        if (attempt == TRIES_DROPPED) {
          throw new IOException(
              request.method() + " " + uri + " failed " + attempt + " times: " + e.getMessage(), e);
        }
        pause(attempt, uri);
      }
    }
  }

  private static void pause(int attempt, URI uri) throws IOException {
    try {
      Thread.sleep(200L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while talking to " + uri, e);
    }
  }

  /** A server's words, short enough for a report. */
  static String brief(String body) {
    String s = body == null ? "" : body.strip().replaceAll("\\s+", " ");
    return s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }
}
