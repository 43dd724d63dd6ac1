package org.mailrestore.dav;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.ItemType;

/**
 * A CardDAV and CalDAV server as a restore target: contacts go to address books, appointments to
 * calendars, tasks to task lists. The target's records (which home, which collection, which
 * resource) stay in the bookkeeping's database with the engine's journal. The server's writes do
 * not commit with the journal: every resource has a name that comes from its source item, and is
 * created only where none is ({@code If-None-Match: *}), so a cluster written again finds what it
 * wrote (see {@link DavWriter}).
 */
final class DavTarget implements MailTarget {

  /** What a DAV server holds. */
  static final Set<ItemType> CARRIED =
      EnumSet.of(ItemType.CONTACT, ItemType.APPOINTMENT, ItemType.TASK);

  private final DavServer server;
  private final DavRecords records;
  private final DavProvisioning provisioning;
  private final DavShares shares;
  private final DavReadBack readBack;

  DavTarget(DavServer server, DavRecords records) {
    this.server = server;
    this.records = records;
    this.provisioning = new DavProvisioning(server, records);
    this.shares = new DavShares(server, records, provisioning);
    this.readBack = new DavReadBack(server, records);
  }

  @Override
  public String describe() {
    return "DAV server " + server.describe();
  }

  @Override
  public boolean atomicCommits() {
    return false;
  }

  @Override
  public Set<ItemType> contentTypes() {
    return CARRIED;
  }

  @Override
  public TargetProvisioning provisioning() {
    return provisioning;
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context) {
    return new DavWriter(server, records, account, context);
  }

  @Override
  public TargetShares shares() {
    return shares;
  }

  @Override
  public RestoredStore readBack() {
    return readBack;
  }

  @Override
  public void check() throws IOException {
    server.check();
  }

  @Override
  public void close() {
    server.homes().close();
  }
}
