package org.mailrestore.restore.shares;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.bookkeeping.IdMap;
import org.mailrestore.restore.bookkeeping.PendingMounts.PendingMount;
import org.mailrestore.restore.run.NotCarried;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 3: grants and mountpoints, rebuilt once every account exists, through the map from source
 * ids to restored ids. Idempotent: the target's grants and mountpoints are upserts.
 */
public final class SharesRestorer {

  private static final Logger LOG = LoggerFactory.getLogger(SharesRestorer.class);

  private final OperationRun run;
  private final Records records;
  private final TargetShares target;
  private final IdMap idMap;
  private final NotCarried notCarried;
  private final Map<String, AccountProgress> bySource = new HashMap<>();

  public SharesRestorer(OperationRun run, Records records) {
    this.run = run;
    this.records = records;
    this.target = run.target().shares();
    this.idMap = records.books().idMap();
    this.notCarried = new NotCarried(run.id(), records, Phase.SHARES);
  }

  /**
   * Restores every account's grants, then every mountpoint. What fails fails alone: a grant the
   * target refuses, an account whose shares cannot be read, a fault of ours, each is recorded with
   * its reason and the rest goes on; only the database failing stops the phase.
   */
  public void run() throws SQLException {
    List<AccountProgress> accounts = records.books().accounts().list(run.id());
    accounts.forEach(a -> bySource.put(a.sourceAccountId(), a));
    for (AccountProgress account : accounts) {
      if (restoredInto(account)) {
        alone(account.sourceAccountId(), 0, "grants", () -> restoreGrants(account));
      }
    }
    for (PendingMount mount : records.books().mounts().list(run.id())) {
      alone(sourceOf(mount), mount.sourceItemId(), "mountpoint", () -> resolveMount(mount));
    }
  }

  /** A part of phase 3. */
  @FunctionalInterface
  private interface Part {
    void run() throws SQLException, IOException;
  }

  /** Runs a part of the phase; its failure is recorded as that part's, and the phase goes on. */
  private void alone(String sourceId, int itemId, String what, Part part) throws SQLException {
    try {
      part.run();
    } catch (IOException e) {
      record(FailureReason.TARGET_REFUSED, sourceId, itemId, "", what + ": " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("operation {}: {} of {} failed", run.id(), what, sourceId, e);
      record(
          FailureReason.INTERNAL_ERROR,
          sourceId,
          itemId,
          "",
          what + ": internal error: " + Records.describe(e));
    }
  }

  private static boolean restoredInto(AccountProgress a) {
    return a.targetKey() != null
        && (a.state() == AccountState.RESTORED || a.state() == AccountState.PARTIAL);
  }

  private void restoreGrants(AccountProgress owner) throws SQLException, IOException {
    String sourceId = owner.sourceAccountId();
    List<Grant> grants;
    String location;
    switch (run.source().grants(sourceId)) {
      case Parsed.Ok<List<Grant>>(List<Grant> value, String where) -> {
        grants = value;
        location = where;
      }
      case Parsed.Failed<List<Grant>>(String where, String reason) -> {
        record(FailureReason.SHARES_UNREADABLE, sourceId, 0, where, reason);
        return;
      }
    }
    if (grants.isEmpty()) {
      return;
    }
    List<Integer> folderIds = new ArrayList<>();
    grants.forEach(g -> folderIds.add(g.folderId()));
    Map<Integer, Integer> folders = idMap.mapped(owner.provisionedIdSpace(), folderIds);
    for (Grant grant : grants) {
      Integer folder =
          SystemFolder.byId(grant.folderId()) != null
              ? Integer.valueOf(grant.folderId())
              : folders.get(grant.folderId());
      if (folder == null) {
        record(
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
            case USER -> accountId(grant.granteeId(), grant.granteeName()).orElse(null);
            case ALL_AUTHENTICATED, PUBLIC -> "";
            default -> grant.granteeId();
          };
      if (granteeId == null) {
        record(
            FailureReason.GRANTEE_MISSING,
            sourceId,
            grant.folderId(),
            location,
            "grantee " + describe(grant) + " is neither restored nor present in the target");
        continue;
      }
      if (!target.grant(owner.target(), folder, grant, granteeId)) {
        notCarried.once("grants of this kind (" + grant.granteeType().wireName() + ")", location);
      }
    }
  }

  private static String describe(Grant grant) {
    return grant.granteeType().wireName()
        + " "
        + (grant.granteeName() != null ? grant.granteeName() : String.valueOf(grant.granteeId()));
  }

  /** The target id of an account named in the source: restored by this operation, or present. */
  private Optional<String> accountId(String sourceAccountId, String name)
      throws SQLException, IOException {
    AccountProgress restored = bySource.get(sourceAccountId);
    if (restored != null && restored.targetId() != null) {
      return Optional.of(restored.targetId());
    }
    return target.accountId(sourceAccountId, name);
  }

  private void resolveMount(PendingMount mount) throws SQLException, IOException {
    AccountProgress owner = bySource.get(mount.sourceOwnerId());
    String where = "mountpoint " + mount.sourceItemId();
    if (owner == null || owner.targetKey() == null || !restoredInto(owner)) {
      record(
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
            : idMap
                .mapped(owner.provisionedIdSpace(), List.of(mount.sourceFolderId()))
                .get(mount.sourceFolderId());
    if (folder == null) {
      record(
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
    AccountProgress holder = holderOf(mount);
    if (holder != null
        && !target.mount(holder.target(), mount.itemId(), owner.targetId(), folder)) {
      notCarried.once("mountpoints", "");
    }
  }

  private @Nullable AccountProgress holderOf(PendingMount mount) {
    return bySource.values().stream()
        .filter(a -> a.targetKey() != null && a.targetKey() == mount.targetKey())
        .findFirst()
        .orElse(null);
  }

  private String sourceOf(PendingMount mount) {
    AccountProgress holder = holderOf(mount);
    return holder == null ? "" : holder.sourceAccountId();
  }

  private void record(
      FailureReason reason, String sourceId, int itemId, String location, String detail)
      throws SQLException {
    records.record(run.id(), Phase.SHARES, reason, sourceId, itemId, location, detail);
  }
}
