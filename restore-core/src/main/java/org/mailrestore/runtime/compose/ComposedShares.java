package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;

/**
 * Phase 3 into composed targets: a grant goes to the part that holds its folder, naming the grantee
 * as that part knows it; a mountpoint lives in the first part and points only at a folder there
 * (one to another part's folder is not carried).
 */
final class ComposedShares implements TargetShares {

  private final ComposedTarget target;

  ComposedShares(ComposedTarget target) {
    this.target = target;
  }

  @Override
  public Optional<String> accountId(String id, String name) throws SQLException, IOException {
    return target.part(0).shares().accountId(id, name);
  }

  @Override
  public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId)
      throws SQLException, IOException {
    int part = partOfFolder(folder);
    String grantee = granteeId;
    if (part != 0 && grant.granteeType() == GranteeType.USER) {
      grantee = target.part(part).shares().accountId(null, grant.granteeName()).orElse(granteeId);
    }
    return target
        .part(part)
        .shares()
        .grant(target.account(part, owner), PartIds.local(folder), grant, grantee);
  }

  private int partOfFolder(int folder) {
    return target.partOfFolder(folder);
  }

  @Override
  public boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder)
      throws SQLException, IOException {
    if (PartIds.part(mountpoint) != 0 || partOfFolder(remoteFolder) != 0) {
      return false;
    }
    return target
        .part(0)
        .shares()
        .mount(owner, PartIds.local(mountpoint), ownerId, PartIds.local(remoteFolder));
  }
}
