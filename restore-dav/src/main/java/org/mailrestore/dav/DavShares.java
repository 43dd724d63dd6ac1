package org.mailrestore.dav;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.mail.Grant;

/**
 * Phase 3 on a DAV server. Sharing address books and calendars (WebDAV ACL, CalDAV sharing) is not
 * written yet: each grant and mountpoint is answered "not carried", and the engine reports it per
 * grant.
 */
final class DavShares implements TargetShares {

  private final DavProvisioning provisioning;

  DavShares(DavProvisioning provisioning) {
    this.provisioning = provisioning;
  }

  @Override
  public Optional<String> accountId(String id, String name) throws SQLException, IOException {
    return provisioning.find(name).map(ProvisionedAccount::id);
  }

  @Override
  public boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId) {
    return false;
  }

  @Override
  public boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder) {
    return false;
  }
}
