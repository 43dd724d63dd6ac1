package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mailstore.IdSpace;
import org.mailrestore.mailstore.SharesStore.PendingMount;
import org.mailrestore.mailstore.TargetAccount;

/**
 * Phase 3: grants and mountpoints, rebuilt once every account exists, through the map from backup
 * ids to restored ids. Idempotent: grants and mountpoints are upserts.
 */
final class SharesRestorer {

  private final RestoreContext ctx;
  private final Map<String, AccountProgress> bySource = new HashMap<>();

  SharesRestorer(RestoreContext ctx) {
    this.ctx = ctx;
  }

  void run() throws SQLException {
    List<AccountProgress> accounts = ctx.operations().accounts(ctx.operationId());
    accounts.forEach(a -> bySource.put(a.sourceAccountId(), a));
    for (AccountProgress account : accounts) {
      if (restoredInto(account)) {
        restoreGrants(account);
      }
    }
    for (PendingMount mount : ctx.shares().pendingMounts(ctx.operationId())) {
      resolveMount(mount);
    }
  }

  private static IdSpace idSpace(AccountProgress a) {
    return new IdSpace(a.mailboxId(), a.sourceRef());
  }

  private static boolean restoredInto(AccountProgress a) {
    return a.mailboxId() != null
        && (a.state() == AccountState.RESTORED || a.state() == AccountState.PARTIAL);
  }

  private void restoreGrants(AccountProgress owner) throws SQLException {
    String sourceId = owner.sourceAccountId();
    List<Grant> grants;
    switch (ctx.backup().grants(sourceId)) {
      case Parsed.Ok<List<Grant>>(List<Grant> value, String location) -> grants = value;
      case Parsed.Failed<List<Grant>>(String location, String reason) -> {
        ctx.record(Phase.SHARES, FailureReason.SHARES_UNREADABLE, sourceId, 0, location, reason);
        return;
      }
    }
    if (grants.isEmpty()) {
      return;
    }
    List<Integer> folderIds = new ArrayList<>();
    grants.forEach(g -> folderIds.add(g.folderId()));
    Map<Integer, Integer> folders = ctx.mailboxes().mappedIds(idSpace(owner), folderIds);
    String location = BackupLayout.sharesFile(sourceId);
    for (Grant grant : grants) {
      Integer folder =
          SystemFolder.byId(grant.folderId()) != null
              ? grant.folderId()
              : folders.get(grant.folderId());
      if (folder == null) {
        ctx.record(
            Phase.SHARES,
            FailureReason.GRANT_FOLDER_MISSING,
            sourceId,
            grant.folderId(),
            location,
            "grant to "
                + describe(grant)
                + " is on folder "
                + grant.folderId()
                + ", which was not restored");
        continue;
      }
      String granteeId =
          switch (grant.granteeType()) {
            case USER -> accountUuid(grant.granteeId(), grant.granteeName()).orElse(null);
            case ALL_AUTHENTICATED, PUBLIC -> "";
            default -> grant.granteeId();
          };
      if (granteeId == null) {
        ctx.record(
            Phase.SHARES,
            FailureReason.GRANTEE_MISSING,
            sourceId,
            grant.folderId(),
            location,
            "grantee " + describe(grant) + " is neither restored nor present in the target");
        continue;
      }
      ctx.shares()
          .upsertGrant(
              owner.mailboxId(),
              folder,
              grant.granteeType().wireName(),
              granteeId,
              grant.granteeName(),
              grant.rights());
    }
  }

  private static String describe(Grant grant) {
    return grant.granteeType().wireName()
        + " "
        + (grant.granteeName() != null ? grant.granteeName() : String.valueOf(grant.granteeId()));
  }

  /** The target uuid of an account named in the backup: restored by this operation, or present. */
  private Optional<String> accountUuid(String sourceAccountId, String name) throws SQLException {
    AccountProgress restored = bySource.get(sourceAccountId);
    if (restored != null && restored.accountUuid() != null) {
      return Optional.of(restored.accountUuid());
    }
    if (sourceAccountId != null) {
      Optional<TargetAccount> same = ctx.provisioning().findAccountByUuid(sourceAccountId);
      if (same.isPresent()) {
        return Optional.of(same.get().uuid());
      }
    }
    if (name != null) {
      return ctx.provisioning().findAccount(name).map(TargetAccount::uuid);
    }
    return Optional.empty();
  }

  private void resolveMount(PendingMount mount) throws SQLException {
    AccountProgress owner = bySource.get(mount.sourceOwnerId());
    String where = "mountpoint " + mount.sourceItemId();
    if (owner == null || owner.mailboxId() == null || !restoredInto(owner)) {
      ctx.record(
          Phase.SHARES,
          FailureReason.MOUNT_TARGET_MISSING,
          sourceOf(mount),
          mount.sourceItemId(),
          "",
          where
              + " points to account "
              + mount.sourceOwnerId()
              + ", which this restore did not restore");
      return;
    }
    Integer folder =
        SystemFolder.byId(mount.sourceFolderId()) != null
            ? Integer.valueOf(mount.sourceFolderId())
            : ctx.mailboxes()
                .mappedIds(idSpace(owner), List.of(mount.sourceFolderId()))
                .get(mount.sourceFolderId());
    if (folder == null) {
      ctx.record(
          Phase.SHARES,
          FailureReason.MOUNT_TARGET_MISSING,
          sourceOf(mount),
          mount.sourceItemId(),
          "",
          where
              + " points to folder "
              + mount.sourceFolderId()
              + " of "
              + owner.accountName()
              + ", which was not restored");
      return;
    }
    ctx.shares().resolveMount(mount.mailboxId(), mount.itemId(), owner.accountUuid(), folder);
  }

  private String sourceOf(PendingMount mount) {
    return bySource.values().stream()
        .filter(a -> a.mailboxId() != null && a.mailboxId() == mount.mailboxId())
        .map(AccountProgress::sourceAccountId)
        .findFirst()
        .orElse("");
  }
}
