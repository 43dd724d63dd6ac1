package org.mailrestore.imap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mailrestore.kind.KindSecrets;

/**
 * An administrator's own IMAP session for work on other users' mailboxes that only IMAP can do:
 * creating a mailbox of a given type and granting rights on it. Other modules use it where a server
 * keeps more than mail in its mailboxes (Cyrus keeps address books and calendars there, see
 * restore-dav). The admin logs in as itself (SASL PLAIN), with the TLS rules of the IMAP target.
 */
public final class ImapAdministration implements AutoCloseable {

  private final ImapSession session;
  private String separator;

  private ImapAdministration(ImapSession session) {
    this.session = session;
  }

  /**
   * Connects to {@code imap://host[:port]} (STARTTLS when offered) or {@code imaps://...} and logs
   * in as the admin.
   *
   * @param trustStore a PKCS12 trust store with a private CA, or null for the JDK's CAs
   */
  public static ImapAdministration open(
      String url, String admin, String password, String trustStore, String trustStorePassword)
      throws IOException {
    ImapEndpoint.Address address;
    try {
      address = ImapEndpoint.Address.parse(url);
    } catch (IllegalArgumentException e) {
      throw new IOException("the IMAP server " + url + " " + e.getMessage(), e);
    }
    ImapEndpoint endpoint =
        new ImapEndpoint(
            address.host(),
            address.port(),
            address.implicitTls(),
            ImapEndpoint.StartTls.WHEN_OFFERED,
            KindSecrets.tls(trustStore, trustStorePassword),
            10_000,
            60_000);
    ImapSession session = ImapSession.open(endpoint);
    try {
      session.loginAs(new AdminLogin(admin, password, AdminLogin.Method.AUTHZID, ""), admin);
    } catch (IOException | RuntimeException e) {
      session.close();
      throw e;
    }
    return new ImapAdministration(session);
  }

  /** The server's hierarchy separator ({@code LIST "" ""}). */
  public String separator() throws IOException {
    if (separator == null) {
      separator = "/";
      for (Response r : session.ok(Command.of("LIST").string("").string("")).untagged()) {
        if (r.is("LIST") && r.data().size() > 2 && r.data().get(2) != null) {
          separator = text(r.data().get(2));
        }
      }
    }
    return separator;
  }

  /** The names of the mailboxes a {@code LIST} pattern matches ({@code %} and {@code *}). */
  public List<String> list(String pattern) throws IOException {
    List<String> names = new ArrayList<>();
    for (Response r : session.ok(Command.of("LIST").string("").string(pattern)).untagged()) {
      if (r.is("LIST") && r.data().size() > 3) {
        names.add(text(r.data().get(3)));
      }
    }
    return names;
  }

  /**
   * Creates a mailbox, of a type when one is given ({@code CREATE name (TYPE calendar)}, as Cyrus
   * takes it); false when it is there already.
   */
  public boolean create(String mailbox, String type) throws IOException {
    Command create = Command.of("CREATE").string(mailbox);
    if (type != null) {
      create.text(" (TYPE " + type + ")");
    }
    ImapSession.Result r = session.run(create);
    if (r.tagged().isOk()) {
      return true;
    }
    // ALREADYEXISTS (RFC 5530), or a server that says so in words only (Cyrus): look.
    if (r.tagged().codeName().equals("ALREADYEXISTS") || !list(mailbox).isEmpty()) {
      return false;
    }
    throw new ImapException("CREATE " + mailbox, r.tagged());
  }

  /** Grants {@code rights} on a mailbox to {@code identifier} ({@code SETACL}, RFC 4314). */
  public void setAcl(String mailbox, String identifier, String rights) throws IOException {
    session.ok(Command.of("SETACL").string(mailbox).string(identifier).string(rights));
  }

  /** How many messages a mailbox holds ({@code STATUS (MESSAGES)}). */
  public long messages(String mailbox) throws IOException {
    for (Response r :
        session.ok(Command.of("STATUS").string(mailbox).text(" (MESSAGES)")).untagged()) {
      if (r.is("STATUS") && r.data().size() > 2 && r.data().get(2) instanceof List<?> items) {
        for (int i = 0; i + 1 < items.size(); i += 2) {
          if ("MESSAGES".equalsIgnoreCase(text(items.get(i)))) {
            return Long.parseLong(text(items.get(i + 1)));
          }
        }
      }
    }
    throw new IOException("STATUS " + mailbox + " gave no MESSAGES");
  }

  /** A mailbox's ACL ({@code GETACL}, RFC 4314): each identifier's rights, in order. */
  public Map<String, String> getAcl(String mailbox) throws IOException {
    Map<String, String> acl = new LinkedHashMap<>();
    for (Response r : session.ok(Command.of("GETACL").string(mailbox)).untagged()) {
      if (r.is("ACL")) {
        List<Object> d = r.data();
        for (int i = 2; i + 1 < d.size(); i += 2) {
          acl.put(text(d.get(i)), text(d.get(i + 1)));
        }
      }
    }
    return acl;
  }

  /** Deletes a mailbox; false when it was not there. */
  public boolean delete(String mailbox) throws IOException {
    ImapSession.Result r = session.run(Command.of("DELETE").string(mailbox));
    if (r.tagged().isOk()) {
      return true;
    }
    if (r.tagged().codeName().equals("NONEXISTENT") || list(mailbox).isEmpty()) {
      return false;
    }
    throw new ImapException("DELETE " + mailbox, r.tagged());
  }

  /** Whether the session still answers ({@code NOOP}): a server logs idle sessions out. */
  public boolean alive() {
    return session.alive();
  }

  /** The server's host and port, for messages. */
  public String describe() {
    return session.server();
  }

  @Override
  public void close() {
    session.close();
  }

  private static String text(Object token) {
    return token instanceof byte[] b
        ? new String(b, StandardCharsets.UTF_8)
        : String.valueOf(token);
  }
}
