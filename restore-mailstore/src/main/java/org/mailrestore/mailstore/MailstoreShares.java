package org.mailrestore.mailstore;

import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.mail.Grant;

/** Phase 3 in the mailstore: rows in {@code acl} and {@code mountpoint}. */
final class MailstoreShares implements TargetShares {

  private final ProvisioningStore accounts;
  private final SharesStore store;

  MailstoreShares(ProvisioningStore accounts, SharesStore store) {
    this.accounts = accounts;
    this.store = store;
  }

  @Override
  public Optional<String> accountId(String id, String name) throws SQLException {
    if (id != null) {
      Optional<TargetAccount> same = accounts.findAccountByUuid(id);
      if (same.isPresent()) {
        return Optional.of(same.get().uuid());
      }
    }
    return name == null ? Optional.empty() : accounts.findAccount(name).map(TargetAccount::uuid);
  }

  @Override
  public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId)
      throws SQLException {
    store.upsertGrant(
        owner.key(),
        folder,
        grant.granteeType().wireName(),
        granteeId,
        grant.granteeName(),
        grant.rights());
    return true;
  }

  @Override
  public boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder)
      throws SQLException {
    store.resolveMount(owner.key(), mountpoint, ownerId, remoteFolder);
    return true;
  }
}
