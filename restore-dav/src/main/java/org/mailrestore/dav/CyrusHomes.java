package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.mailrestore.dav.DavClient.Answer;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.imap.AclRights;
import org.mailrestore.imap.ImapAdministration;

/**
 * Cyrus's CalDAV and CardDAV ({@code httpd}), for an administrator (decision 0051). Cyrus keeps a
 * user's calendars and address books as mailboxes ({@code user/ann/#calendars/work}); its HTTP side
 * answers anyone addressing another user's collection with a redirect into their own view of it
 * ({@code /dav/calendars/user/<admin>/ann.work/}), lets no one make a collection there, and takes
 * proxy authorisation only in a Murder. So the collections are made over IMAP, where a Cyrus admin
 * may create any user's mailboxes ({@code CREATE ... (TYPE calendar)}) and grant itself rights on
 * them ({@code SETACL}), and everything else goes through the admin's view over HTTP.
 */
final class CyrusHomes implements DavHomes {

  /** The rights the administrator gives itself on a collection it makes (RFC 4314, no admin). */
  static final String RIGHTS = "lrswipkxtecdn";

  /** Cyrus's own collections under a home, which emptying a home leaves. */
  private static final Set<String> CYRUS_OWN = Set.of("Attachments", "Inbox", "Outbox");

  private final URI base;
  private final DavClient client;
  private final String admin;
  private final String userTemplate;
  private final ImapConnector imap;
  private ImapAdministration session;
  private long lastUsed;

  /** A session unused this long is asked whether it is still there before it is used again. */
  private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** Opens the administrator's IMAP session when one is first needed. */
  interface ImapConnector {
    ImapAdministration open() throws IOException;
  }

  /**
   * @param base the server's DAV root ({@code http://host:8080/dav/})
   * @param userTemplate the Cyrus user of an address: {@code {address}} (virtual domains) or {@code
   *     {local}}
   */
  CyrusHomes(URI base, DavClient client, String admin, String userTemplate, ImapConnector imap) {
    this.base = base;
    this.client = client;
    this.admin = admin;
    this.userTemplate = userTemplate.replace("/", "");
    this.imap = imap;
  }

  @Override
  public URI at(String address, CollectionKind kind, String href) {
    String tree = kind == CollectionKind.ADDRESSBOOK ? "addressbooks" : "calendars";
    return base.resolve(
        tree
            + "/user/"
            + TemplateHomes.segment(admin)
            + "/"
            + TemplateHomes.segment(user(address))
            + "."
            + href);
  }

  @Override
  public synchronized boolean exists(String address) throws IOException {
    return !imap().list(home(address, CollectionKind.CALENDAR)).isEmpty()
        && !imap().list(home(address, CollectionKind.ADDRESSBOOK)).isEmpty();
  }

  @Override
  public synchronized void make(String address) throws IOException {
    String inbox = mailbox(address, null);
    try {
      imap().create(inbox, null);
      imap().create(home(address, CollectionKind.CALENDAR), "calendar");
      imap().create(home(address, CollectionKind.ADDRESSBOOK), "addressbook");
    } catch (IOException e) {
      throw new ProvisioningRefusedException(
          "Cyrus refused to make the calendar and address book homes of "
              + address
              + " ("
              + e.getMessage()
              + "): the DAV administrator must be one of Cyrus's admins (imapd.conf admins:),"
              + " see docs/dav-target.md");
    }
  }

  @Override
  public void make(String address, CollectionRow row) throws IOException {
    synchronized (this) {
      String mailbox = collectionMailbox(address, row);
      imap().create(mailbox, row.kind() == CollectionKind.ADDRESSBOOK ? "addressbook" : "calendar");
      imap().setAcl(mailbox, admin, RIGHTS);
    }
    URI uri = at(address, row.kind(), row.href());
    Answer a =
        client.name(
            uri,
            row.name(),
            row.kind() == CollectionKind.ADDRESSBOOK ? null : DavCollections.color(row.color()));
    if (!a.ok() || a.body().contains("HTTP/1.1 4")) {
      throw DavCollections.refused(uri, row, a);
    }
  }

  /**
   * Deletes the home's collections over IMAP: a {@code DELETE} through the admin's view would only
   * take the admin's share of the collection away, as it does for any user a collection is shared
   * with.
   */
  @Override
  public synchronized void empty(String address) throws IOException {
    for (CollectionKind kind : List.of(CollectionKind.CALENDAR, CollectionKind.ADDRESSBOOK)) {
      String homeName = withoutDomain(home(address, kind), address);
      for (String name : imap().list(homeName + separator() + "%" + domainSuffix(address))) {
        String child = withoutDomain(name, address).substring(homeName.length() + 1);
        if (!CYRUS_OWN.contains(child)) {
          imap().setAcl(name, admin, RIGHTS); // the user's own collections too
          imap().delete(name);
        }
      }
    }
  }

  @Override
  public boolean holdsGrants() {
    return true;
  }

  /** A grant is an ACL entry on the collection's mailbox, its rights as IMAP's (decision 0051). */
  @Override
  public synchronized boolean grant(String owner, CollectionRow row, String grantee, String rights)
      throws IOException {
    String imapRights = AclRights.toImap(rights);
    if (imapRights.isEmpty()) {
      return false;
    }
    imap().setAcl(collectionMailbox(owner, row), user(grantee), imapRights);
    return true;
  }

  @Override
  public synchronized Map<String, String> grants(String owner, CollectionRow row)
      throws IOException {
    Map<String, String> grants = new LinkedHashMap<>();
    String self = user(owner);
    for (Map.Entry<String, String> e : imap().getAcl(collectionMailbox(owner, row)).entrySet()) {
      String who = e.getKey();
      String rights = AclRights.fromImap(e.getValue());
      if (who.equals(self) || who.equals(admin) || rights.isEmpty()) {
        continue;
      }
      grants.put(address(who, owner), rights);
    }
    return grants;
  }

  /**
   * Cyrus schedules what a user writes as themselves, not what its admin writes through its own
   * view of the user's calendar (tested: {@code CyrusSchedulingTest}, Cyrus 3.6 with scheduling on,
   * no invitation mailed and none delivered).
   */
  @Override
  public boolean writesAreScheduled() {
    return false;
  }

  @Override
  public URI schedulingProbe() {
    return base.resolve("calendars/");
  }

  @Override
  public String describe() {
    return base.toString();
  }

  /** The Cyrus user of an address. */
  String user(String address) {
    int at = address.lastIndexOf('@');
    String local = at < 0 ? address : address.substring(0, at);
    String domain = at < 0 ? "" : address.substring(at + 1);
    return userTemplate
        .replace("{address}", address)
        .replace("{local}", local)
        .replace("{domain}", domain);
  }

  /** The address of a Cyrus user: the user itself, or with the owner's domain ({@code {local}}). */
  private String address(String cyrusUser, String owner) {
    int at = owner.lastIndexOf('@');
    return cyrusUser.contains("@") || at < 0 ? cyrusUser : cyrusUser + owner.substring(at);
  }

  /** A collection's mailbox ({@code user/ann/#calendars/work-300@example.org}). */
  private String collectionMailbox(String address, CollectionRow row) throws IOException {
    return mailbox(address, tree(row.kind()) + separator() + collectionName(row.href()));
  }

  /** A home's mailbox ({@code user/ann/#calendars@example.org}). */
  private String home(String address, CollectionKind kind) throws IOException {
    return mailbox(address, tree(kind));
  }

  private static String tree(CollectionKind kind) {
    return kind == CollectionKind.ADDRESSBOOK ? "#addressbooks" : "#calendars";
  }

  /**
   * A user's mailbox: {@code user<sep><local>[<sep><sub>]} and the domain after {@code @} when the
   * user has one (Cyrus's virtual domains).
   */
  private String mailbox(String address, String sub) throws IOException {
    String user = user(address);
    int at = user.lastIndexOf('@');
    String local = at < 0 ? user : user.substring(0, at);
    String sep = separator();
    if (sep.equals(".")) {
      local = local.replace('.', '^'); // Cyrus's netnews separator: a dot in a name is a caret
    }
    return "user" + sep + local + (sub == null ? "" : sep + sub) + domainSuffix(address);
  }

  private String domainSuffix(String address) {
    String user = user(address);
    int at = user.lastIndexOf('@');
    return at < 0 ? "" : user.substring(at);
  }

  private String withoutDomain(String mailbox, String address) {
    String suffix = domainSuffix(address);
    return !suffix.isEmpty() && mailbox.endsWith(suffix)
        ? mailbox.substring(0, mailbox.length() - suffix.length())
        : mailbox;
  }

  private static String collectionName(String href) {
    return href.endsWith("/") ? href.substring(0, href.length() - 1) : href;
  }

  private synchronized String separator() throws IOException {
    return imap().separator();
  }

  /**
   * The admin's IMAP session, opened again when the server has logged it out: a restore makes
   * collections now and then over hours, and Cyrus logs out a session idle for 30 minutes.
   */
  private synchronized ImapAdministration imap() throws IOException {
    long now = System.nanoTime();
    if (session != null && now - lastUsed > IDLE_CHECK_NANOS && !session.alive()) {
      close();
    }
    if (session == null) {
      session = imap.open();
    }
    lastUsed = now;
    return session;
  }

  @Override
  public synchronized void close() {
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
