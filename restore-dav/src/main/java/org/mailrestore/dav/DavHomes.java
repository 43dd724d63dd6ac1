package org.mailrestore.dav;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.mailrestore.dav.DavRecords.CollectionKind;
import org.mailrestore.dav.DavRecords.CollectionRow;

/**
 * Where a server keeps each user's address books and calendars, and how the administrator makes
 * them: one implementation per way servers let an administrator write into users' collections
 * ({@link TemplateHomes}: a home per user under the server's path, as Radicale; {@link CyrusHomes}:
 * Cyrus's mailboxes, made over IMAP and written through the administrator's view). The target
 * records a collection as {@code <name>/} and a resource as {@code <name>/<file>}; a home says
 * where those are.
 */
interface DavHomes {

  /** A user's collection ({@code work-300/}) or resource ({@code work-300/<uuid>.ics}). */
  URI at(String address, CollectionKind kind, String href);

  /** Whether the user's home is there. */
  boolean exists(String address) throws IOException;

  /**
   * Makes the user's home (one there is kept).
   *
   * @throws org.mailrestore.destination.ProvisioningRefusedException saying what to do when the
   *     server refuses
   */
  void make(String address) throws IOException;

  /** Makes a collection of a user, named and coloured as its folder; one there is taken. */
  void make(String address, CollectionRow row) throws IOException;

  /** Deletes every collection of the user's home, the user's own too ({@code --replace}). */
  void empty(String address) throws IOException;

  /** Whether the server keeps who else may read or write a user's collection, as written here. */
  default boolean holdsGrants() {
    return false;
  }

  /**
   * Lets another user use a collection with Zimbra's rights letters ({@code rwidax}); false where
   * the server cannot hold the grant (the engine reports it).
   */
  default boolean grant(String owner, CollectionRow row, String grantee, String rights)
      throws IOException {
    return false;
  }

  /** The grants on a user's collection: each grantee's address and rights (Zimbra's letters). */
  default Map<String, String> grants(String owner, CollectionRow row) throws IOException {
    return Map.of();
  }

  /**
   * Where the server says, in its {@code OPTIONS}, whether it schedules (RFC 6638 {@code
   * calendar-auto-schedule}).
   */
  URI schedulingProbe();

  /**
   * Whether what the administrator writes into a user's calendar is scheduled by a server that
   * schedules, as if the user had written it (RFC 6638 servers schedule for the calendar's owner).
   * Where it is, meetings are refused unless allowed ({@code --dav-scheduling}).
   */
  default boolean writesAreScheduled() {
    return true;
  }

  /** What the server is, for messages. */
  String describe();

  /** Lets go of what the homes hold open (an IMAP session). */
  default void close() {}
}
