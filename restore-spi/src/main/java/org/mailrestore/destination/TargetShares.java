package org.mailrestore.destination;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;
import org.mailrestore.mail.Grant;

/**
 * Phase 3 in the target: grants and mountpoints, once every account exists. Idempotent: writing a
 * grant or a mountpoint again updates it. A target that cannot hold one returns false; the engine
 * reports it.
 */
public interface TargetShares {

  /**
   * The target id of an account that exists there (not restored by this operation): the account
   * with this id, else the one with this address.
   */
  Optional<String> accountId(String id, String name) throws SQLException, IOException;

  /**
   * Grants rights on one of the owner's folders.
   *
   * @param folder the folder's id in the target
   * @param granteeId the grantee in the target's terms (an account id, a list address, a domain)
   */
  boolean grant(ProvisionedAccount owner, int folder, Grant grant, String granteeId)
      throws SQLException, IOException;

  /** Points a mountpoint at another account's folder. */
  boolean mount(ProvisionedAccount owner, int mountpoint, String ownerId, int remoteFolder)
      throws SQLException, IOException;
}
