package org.mailrestore.imap;

import java.sql.SQLException;
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
 * A live IMAP server as a restore target. The mail goes to the server; the target's records (which
 * login, which folder, which UID) stay in the bookkeeping's database with the engine's journal. The
 * server's writes do not commit with the journal: a cluster found in doubt is looked up on the
 * server before anything is appended again (see {@link ImapWriter}).
 */
final class ImapTarget implements MailTarget {

  private final ImapServer server;
  private final ImapRecords records;
  private final ImapProvisioning provisioning;
  private final ImapShares shares;
  private final ImapReadBack readBack;

  ImapTarget(ImapServer server, ImapRecords records, SqlUsers users, String allUsers) {
    this.server = server;
    this.records = records;
    this.provisioning = new ImapProvisioning(server, records, users);
    this.shares = new ImapShares(server, records, provisioning, allUsers);
    this.readBack = new ImapReadBack(server, records, shares);
  }

  @Override
  public String describe() {
    return "IMAP server " + server.describe();
  }

  @Override
  public boolean atomicCommits() {
    return false;
  }

  @Override
  public Set<ItemType> contentTypes() {
    return EnumSet.of(ItemType.MESSAGE);
  }

  @Override
  public TargetProvisioning provisioning() {
    return provisioning;
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context)
      throws SQLException {
    return new ImapWriter(server, records, account, context);
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
  public void check() throws java.io.IOException {
    server.check();
  }

  @Override
  public void close() {
    server.closeIdle();
  }
}
