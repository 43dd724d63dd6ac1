package org.mailrestore.ldap;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;

/**
 * An LDAP directory as the place phase 1 goes: it holds accounts, aliases, lists, domains and
 * classes of service, and no content. It is composed beside the target that takes the mailboxes
 * (decision 0034), which reads its accounts from here (Dovecot's LDAP passdb, Postfix's LDAP
 * tables, Zimbra's own).
 */
final class LdapTarget implements MailTarget {

  private final Directory directory;
  private final Layout layout;
  private final LdapProvisioning provisioning;

  LdapTarget(Directory directory, Layout layout) {
    this.directory = directory;
    this.layout = layout;
    this.provisioning = new LdapProvisioning(directory, layout);
  }

  @Override
  public String describe() {
    return "LDAP directory "
        + directory.describe()
        + " ("
        + layout.name()
        + ", "
        + layout.base
        + ")";
  }

  @Override
  public boolean atomicCommits() {
    return false;
  }

  @Override
  public Set<ItemType> contentTypes() {
    return Set.of();
  }

  @Override
  public TargetProvisioning provisioning() {
    return provisioning;
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context)
      throws IOException {
    throw new IOException(describe() + " holds no mailboxes: compose it with a target that does");
  }

  /** Grants live with the folders they are on, in the part that holds them. */
  @Override
  public TargetShares shares() {
    return new TargetShares() {
      @Override
      public Optional<String> accountId(String id, String name) throws IOException {
        return provisioning.find(name).map(ProvisionedAccount::id);
      }

      @Override
      public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId) {
        return false;
      }

      @Override
      public boolean mount(
          ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder) {
        return false;
      }
    };
  }

  @Override
  public RestoredStore readBack() {
    return new LdapReadBack(directory, layout);
  }

  @Override
  public void check() throws IOException {
    if (directory.get(layout.base, "1.1").isEmpty()) {
      throw new IOException(
          "the base DN "
              + layout.base
              + " is not in "
              + directory.describe()
              + ": create it first");
    }
  }

  @Override
  public void close() {
    directory.close();
  }
}
