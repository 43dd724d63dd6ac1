package org.mailrestore.restore;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.folders.FolderGraph;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.SystemFolder;
import org.mailrestore.mailstore.ClusterWrite;
import org.mailrestore.mailstore.ClusterWrite.Counters;
import org.mailrestore.mailstore.ClusterWrite.IdMapping;
import org.mailrestore.mailstore.ClusterWrite.MountRow;
import org.mailrestore.mailstore.ClusterWrite.TagLink;
import org.mailrestore.mailstore.ClusterWrite.TagRow;
import org.mailrestore.mailstore.FailureRow;
import org.mailrestore.mailstore.IdSpace;
import org.mailrestore.mailstore.ItemRow;
import org.mailrestore.mailstore.LeaseLostException;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.SourceProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Phase 2 for one account. Two passes over the account's item stream: the first collects the
 * folder-like items and tags (few) and writes them as cluster 0; the second streams the content
 * items and writes them in clusters, each one transaction with its checkpoint. A resumed account
 * skips the clusters already committed; a re-run into an existing mailbox skips the items the id
 * map says are restored.
 */
final class AccountRestorer {

  /** A cluster also ends when its items declare this many blob bytes. */
  static final long MAX_CLUSTER_BYTES = 64L << 20;

  private static final int DUPLICATE_KEY = 1062;

  /** Blobs from this size on also take a large-copy permit: they hold bigger buffers. */
  static final long LARGE_BLOB = 8L << 20;

  private static final Logger LOG = LoggerFactory.getLogger(AccountRestorer.class);

  private final RestoreContext ctx;
  private final AccountProgress account;
  private final String sourceId;
  private final Map<Integer, Integer> folderMap = new HashMap<>();
  private final IdSpace idSpace;
  private IdAllocator ids;
  private TagRegistry tags;

  AccountRestorer(RestoreContext ctx, AccountProgress account) {
    this.ctx = ctx;
    this.account = account;
    this.sourceId = account.sourceAccountId();
    this.idSpace =
        account.mailboxId() == null ? null : new IdSpace(account.mailboxId(), account.sourceRef());
    for (SystemFolder f : SystemFolder.values()) {
      folderMap.put(f.id(), f.id());
    }
  }

  /**
   * Restores the account, which this instance has claimed; returns its final state, or empty when
   * stopped before the end or when the account's lease was lost to another instance.
   */
  Optional<AccountState> restore() throws SQLException {
    try (var logContext = MDC.putCloseable("account", account.accountName())) {
      return restoreClaimed();
    }
  }

  private Optional<AccountState> restoreClaimed() throws SQLException {
    ctx.metrics().accountStarted();
    try {
      AccountState state =
          account.state() == AccountState.SKIPPED ? countSkipped() : restoreItems();
      if (state == null) {
        // Stopped (cancel or shutdown): clusters in flight finished; another run continues.
        ctx.db()
            .call(
                "releasing an account",
                () -> {
                  ctx.operations().releaseAccount(ctx.operationId(), sourceId, ctx.instanceId());
                  return null;
                });
        return Optional.empty();
      }
      ctx.db()
          .call(
              "finishing an account",
              () -> {
                ctx.operations().finishAccount(ctx.operationId(), sourceId, state, null);
                return null;
              });
      ctx.metrics().accountDone(state);
      return Optional.of(state);
    } catch (IOException e) {
      String detail = "cannot read the account's items: " + e.getMessage();
      ctx.record(Phase.DATA, FailureReason.ACCOUNT_UNREADABLE, sourceId, 0, "", detail);
      ctx.operations().finishAccount(ctx.operationId(), sourceId, AccountState.FAILED, detail);
      ctx.metrics().accountDone(AccountState.FAILED);
      return Optional.of(AccountState.FAILED);
    } catch (LeaseLostException e) {
      LOG.warn("{}; leaving account {} to its new owner", e.getMessage(), account.accountName());
      return Optional.empty();
    } finally {
      ctx.metrics().accountFinished();
    }
  }

  /** Restores the account's items; returns null when stopped before the end. */
  private AccountState restoreItems() throws IOException, SQLException {
    int mailbox = account.mailboxId();
    Set<Integer> committed =
        ctx.db()
            .call(
                "reading checkpoints",
                () -> ctx.mailboxes().committedClusters(ctx.operationId(), sourceId));
    ids =
        new IdAllocator(
            ctx.db().call("allocating ids", () -> ctx.mailboxes().nextFreeItemId(mailbox)));
    Containers containers = readContainers();
    recordSourceProblems();
    tags = ctx.db().call("reading tags", () -> new TagRegistry(ctx.mailboxes(), mailbox, ids));
    if (committed.contains(0)) {
      loadContainerMaps(containers);
    } else {
      writeContainers(containers);
    }
    if (!restoreContent(committed)) {
      return null;
    }
    ctx.db()
        .call(
            "raising the id checkpoint",
            () -> {
              ctx.mailboxes().raiseItemIdCheckpoint(mailbox, ids.highest());
              return null;
            });
    long errors =
        ctx.db()
            .call(
                "counting failures",
                () -> ctx.operations().errorCount(ctx.operationId(), sourceId));
    return errors > 0 ? AccountState.PARTIAL : AccountState.RESTORED;
  }

  /**
   * Records what the backup's storage could not present as items (files of a Maildir tree it could
   * not read); known once the items have been read. Recording again on a resume is harmless.
   */
  private void recordSourceProblems() throws SQLException {
    List<FailureRow> rows = new ArrayList<>();
    for (SourceProblem p : ctx.backup().storage().problems(sourceId)) {
      rows.add(
          ctx.failure(
              Phase.DATA, FailureReason.SOURCE_UNREADABLE, sourceId, 0, p.location(), p.detail()));
    }
    if (!rows.isEmpty()) {
      ctx.record(rows);
    }
  }

  // ---- pass 1: folders, search folders, mountpoints, tags -------------------------------------

  private record TagDef(int oldId, String name, int color, String location) {}

  private record Containers(
      List<FolderGraph.Container> folders,
      Map<Integer, String> locations,
      List<TagDef> tags,
      List<FailureRow> failures) {}

  private Containers readContainers() throws IOException {
    List<FolderGraph.Container> folders = new ArrayList<>();
    Map<Integer, String> locations = new HashMap<>();
    List<TagDef> tagDefs = new ArrayList<>();
    List<FailureRow> failures = new ArrayList<>();
    try (ItemStream stream = ctx.backup().items(sourceId, ItemType.containers())) {
      while (stream.hasNext()) {
        switch (stream.next()) {
          case ItemEntry.Decoded(Item item, String location) -> {
            Optional<Revision> state = ctx.pointInTime().select(item);
            if (state.isEmpty()) {
              continue;
            }
            if (item.type() == ItemType.TAG) {
              tagDefs.add(new TagDef(item.id(), state.get().name(), state.get().color(), location));
            } else {
              folders.add(new FolderGraph.Container(item.id(), item.type(), state.get()));
              locations.put(item.id(), location);
            }
          }
          case ItemEntry.Undecodable u -> {
            // Undecodable records of unknown type are reported by the content pass.
            if (u.type() != null && u.type().isContainer()) {
              failures.add(
                  ctx.failure(
                      Phase.DATA,
                      FailureReason.INVALID_ITEM,
                      sourceId,
                      u.itemId(),
                      u.location(),
                      u.reason()));
            }
          }
        }
      }
    }
    tagDefs.sort(Comparator.comparingInt(TagDef::oldId));
    return new Containers(folders, locations, tagDefs, failures);
  }

  private Set<Integer> containerIds(Containers c) {
    Set<Integer> all = new HashSet<>();
    c.folders().forEach(f -> all.add(f.oldId()));
    c.tags().forEach(t -> all.add(t.oldId()));
    all.add(FolderGraph.RECOVERY_OLD_ID);
    return all;
  }

  /** A resumed account: cluster 0 is committed, so its mappings are read back. */
  private void loadContainerMaps(Containers c) throws SQLException {
    Map<Integer, Integer> restored =
        ctx.db()
            .call(
                "reading the folder map",
                () -> ctx.mailboxes().mappedIds(idSpace, containerIds(c)));
    for (FolderGraph.Container f : c.folders()) {
      Integer newId = restored.get(f.oldId());
      if (newId != null) {
        folderMap.put(f.oldId(), newId);
      }
    }
  }

  private void writeContainers(Containers c) throws SQLException {
    int mailbox = account.mailboxId();
    Map<Integer, Integer> restored =
        account.freshMailbox()
            ? Map.of()
            : ctx.db()
                .call(
                    "reading the folder map",
                    () -> ctx.mailboxes().mappedIds(idSpace, containerIds(c)));
    FolderGraph.Plan plan =
        FolderGraph.plan(
            c.folders(),
            ctx.db()
                .call("reading folder names", () -> ctx.mailboxes().folderNamesByParent(mailbox)),
            restored);
    List<ItemRow> rows = new ArrayList<>();
    List<IdMapping> mappings = new ArrayList<>();
    List<MountRow> mounts = new ArrayList<>();
    List<TagRow> tagRows = new ArrayList<>();
    List<FailureRow> failures = new ArrayList<>(c.failures());
    long restoredCount = 0;
    long skipped = 0;
    Integer recoveryId = restored.get(FolderGraph.RECOVERY_OLD_ID);
    if (plan.needsRecoveryFolder() && recoveryId == null) {
      recoveryId = ids.next();
      rows.add(
          ItemRow.of(
              recoveryId,
              ItemType.FOLDER,
              SystemFolder.USER_ROOT.id(),
              plan.recoveryFolderName(),
              Revision.builder(1, System.currentTimeMillis())
                  .date(System.currentTimeMillis())
                  .view("message")
                  .build(),
              null));
      mappings.add(new IdMapping(FolderGraph.RECOVERY_OLD_ID, recoveryId));
    }
    for (FolderGraph.PlannedFolder planned : plan.folders()) {
      FolderGraph.Container folder = planned.container();
      if (planned.alreadyRestored()) {
        folderMap.put(folder.oldId(), restored.get(folder.oldId()));
        skipped++;
        continue;
      }
      int parent =
          switch (planned.parent()) {
            case FolderGraph.Parent.System(int id) -> id;
            case FolderGraph.Parent.Planned(int oldId) -> folderMap.get(oldId);
            case FolderGraph.Parent.Recovery() -> recoveryId;
          };
      int newId = ids.next();
      folderMap.put(folder.oldId(), newId);
      Revision s = folder.state();
      rows.add(ItemRow.of(newId, folder.type(), parent, planned.name(), s, null));
      mappings.add(new IdMapping(folder.oldId(), newId));
      if (folder.type() == ItemType.MOUNTPOINT) {
        mounts.add(
            new MountRow(
                newId, folder.oldId(), s.mount().ownerAccountId(), s.mount().remoteFolderId()));
      }
      restoredCount++;
      ctx.metrics().items("restored", folder.type(), 1);
    }
    for (FolderGraph.Issue issue : plan.issues()) {
      FailureReason reason =
          switch (issue.kind()) {
            case ORPHAN -> FailureReason.ORPHAN_FOLDER;
            case CYCLE -> FailureReason.FOLDER_CYCLE;
            case DUPLICATE_NAME -> FailureReason.DUPLICATE_NAME;
          };
      failures.add(
          ctx.failure(
              Phase.DATA,
              reason,
              sourceId,
              issue.oldId(),
              c.locations().getOrDefault(issue.oldId(), ""),
              issue.detail()));
    }
    for (TagDef tag : c.tags()) {
      Integer done = restored.get(tag.oldId());
      if (done != null) {
        tags.put(tag.name(), done);
        skipped++;
        continue;
      }
      Integer same = tags.find(tag.name());
      if (same != null) {
        // The mailbox (or an earlier tag of the backup) has this name: the items share it.
        mappings.add(new IdMapping(tag.oldId(), same));
        skipped++;
        continue;
      }
      int newId = ids.next();
      tags.put(tag.name(), newId);
      tagRows.add(new TagRow(newId, tag.name(), tag.color() < 0 ? null : tag.color()));
      mappings.add(new IdMapping(tag.oldId(), newId));
      restoredCount++;
      ctx.metrics().items("restored", ItemType.TAG, 1);
    }
    ctx.metrics().items("skipped", ItemType.FOLDER, skipped);
    long failed = c.failures().size();
    commit(
        0,
        rows,
        tagRows,
        List.of(),
        mappings,
        mounts,
        failures,
        new Counters(restoredCount, skipped, failed, 0, 0));
  }

  // ---- pass 2: content items in clusters -----------------------------------------------------

  /**
   * Streams the content items in clusters, several in flight (the stream is decoded here, in order;
   * clusters are restored and committed concurrently, each with its own checkpoint row). Returns
   * false when stopped before the end.
   */
  private boolean restoreContent(Set<Integer> committed) throws IOException, SQLException {
    int clusterSize = ctx.request().effectiveClusterSize();
    ClustersInFlight inFlight = new ClustersInFlight(ctx.concurrency().clustersPerAccount());
    int seq = 0;
    List<ItemEntry> batch = new ArrayList<>(clusterSize);
    long batchBytes = 0;
    try (ItemStream stream = ctx.backup().items(sourceId, ItemType.contents())) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        batch.add(entry);
        batchBytes += declaredSize(entry);
        if (batch.size() >= clusterSize || batchBytes >= MAX_CLUSTER_BYTES) {
          seq++;
          if (!committed.contains(seq) && !submit(inFlight, seq, batch)) {
            return false;
          }
          batch = new ArrayList<>(clusterSize);
          batchBytes = 0;
        }
      }
      if (!batch.isEmpty()) {
        seq++;
        if (!committed.contains(seq) && !submit(inFlight, seq, batch)) {
          return false;
        }
      }
    } finally {
      inFlight.awaitAll();
    }
    return !ctx.cancel().raised();
  }

  private boolean submit(ClustersInFlight inFlight, int seq, List<ItemEntry> batch)
      throws SQLException {
    if (ctx.cancel().raised()) {
      return false;
    }
    inFlight.submit(() -> restoreCluster(seq, batch));
    return true;
  }

  /**
   * At most {@code limit} clusters of this account at once: submitting blocks until one finishes,
   * which holds back decoding (backpressure). The first failure is rethrown.
   */
  private final class ClustersInFlight {
    private final java.util.concurrent.Semaphore slots;
    private final List<java.util.concurrent.Future<?>> running = new ArrayList<>();

    ClustersInFlight(int limit) {
      this.slots = new java.util.concurrent.Semaphore(limit);
    }

    void submit(ClusterTask task) throws SQLException {
      try {
        slots.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for a cluster slot", e);
      }
      rethrowFailures(false);
      ctx.metrics().clusterStarted();
      running.add(
          ctx.io()
              .submit(() -> {
                try {
                  task.run();
                  return null;
                } finally {
                  ctx.metrics().clusterFinished();
                  slots.release();
                }
              }));
    }

    void awaitAll() throws SQLException {
      rethrowFailures(true);
    }

    private void rethrowFailures(boolean wait) throws SQLException {
      for (var it = running.iterator(); it.hasNext(); ) {
        var future = it.next();
        if (!wait && !future.isDone()) {
          continue;
        }
        it.remove();
        try {
          future.get();
        } catch (java.util.concurrent.ExecutionException e) {
          // Let the other clusters finish before failing the account.
          for (var other : running) {
            awaitQuietly(other);
          }
          running.clear();
          throw DatabaseRetry.asSql(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLException("interrupted while waiting for clusters", e);
        }
      }
    }
  }

  @FunctionalInterface
  private interface ClusterTask {
    void run() throws SQLException;
  }

  private static void awaitQuietly(java.util.concurrent.Future<?> future) {
    try {
      future.get();
    } catch (java.util.concurrent.ExecutionException e) {
      // The first failure is the one reported.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long declaredSize(ItemEntry entry) {
    if (entry instanceof ItemEntry.Decoded(Item item, String location)) {
      return item.revisions().get(item.revisions().size() - 1).size();
    }
    return 0;
  }

  /** An item selected for restore, with what it needs. */
  private static final class Pending {
    final Item item;
    final Revision state;
    final String location;
    Integer folder;
    StoredBlob blob;
    boolean failed;

    Pending(Item item, Revision state, String location) {
      this.item = item;
      this.state = state;
      this.location = location;
    }
  }

  private void restoreCluster(int seq, List<ItemEntry> entries) throws SQLException {
    List<FailureRow> failures = new ArrayList<>();
    List<Pending> pending = new ArrayList<>(entries.size());
    long failed = 0;
    for (ItemEntry entry : entries) {
      switch (entry) {
        case ItemEntry.Decoded(Item item, String location) ->
            ctx.pointInTime()
                .select(item)
                .ifPresent(s -> pending.add(new Pending(item, s, location)));
        case ItemEntry.Undecodable u -> {
          if (u.type() == null || !u.type().isContainer()) {
            failures.add(
                ctx.failure(
                    Phase.DATA,
                    FailureReason.INVALID_ITEM,
                    sourceId,
                    u.itemId(),
                    u.location(),
                    u.reason()));
            ctx.metrics().items("failed", u.type(), 1);
            failed++;
          }
        }
      }
    }
    long skipped = skipRestored(pending);
    for (Pending p : pending) {
      p.folder = folderMap.get(p.state.folderId());
      if (p.folder == null) {
        fail(
            p,
            failures,
            FailureReason.FOLDER_MISSING,
            "its folder " + p.state.folderId() + " is not in the backup");
      }
    }
    long dedupHits = transferBlobs(pending, failures);
    List<ItemRow> rows = new ArrayList<>(pending.size());
    List<IdMapping> mappings = new ArrayList<>(pending.size());
    List<TagLink> links = new ArrayList<>();
    long restored = 0;
    long bytes = 0;
    for (Pending p : pending) {
      if (p.failed) {
        failed++;
        continue;
      }
      int newId = ids.next();
      Revision s = p.state;
      rows.add(
          ItemRow.of(
              newId,
              p.item.type(),
              p.folder,
              s.name(),
              s,
              p.blob == null ? null : ctx.target().volumeId()));
      mappings.add(new IdMapping(p.item.id(), newId));
      for (String tag : distinctTags(s.tags())) {
        links.add(new TagLink(newId, tags.idFor(tag)));
      }
      restored++;
      bytes += s.size();
      ctx.metrics().items("restored", p.item.type(), 1);
    }
    commit(
        seq,
        rows,
        List.of(),
        links,
        mappings,
        List.of(),
        failures,
        new Counters(restored, skipped, failed, bytes, dedupHits));
    ctx.metrics().bytes(bytes);
    ctx.metrics().dedupHits(dedupHits);
  }

  /** Drops the items an earlier run restored into this mailbox; returns how many. */
  private long skipRestored(List<Pending> pending) throws SQLException {
    if (account.freshMailbox() || pending.isEmpty()) {
      return 0; // a mailbox this operation created holds only committed clusters, skipped whole
    }
    List<Integer> oldIds = pending.stream().map(p -> p.item.id()).toList();
    Map<Integer, Integer> done =
        ctx.db()
            .call("looking up restored items", () -> ctx.mailboxes().mappedIds(idSpace, oldIds));
    long skipped = 0;
    for (var it = pending.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (done.containsKey(p.item.id())) {
        it.remove();
        skipped++;
        ctx.metrics().items("skipped", p.item.type(), 1);
      }
    }
    return skipped;
  }

  /**
   * Copies the blobs the cluster needs and the volume lacks (each digest once), syncs the volume,
   * and records them: no row can commit before its blob is durable. Returns the dedup hits.
   */
  private long transferBlobs(List<Pending> pending, List<FailureRow> failures) throws SQLException {
    List<StoredBlob> newBlobs = new ArrayList<>();
    Map<BlobDigest, List<Pending>> byDigest = new LinkedHashMap<>();
    for (Pending p : pending) {
      if (!p.failed && p.item.type().hasBlob()) {
        byDigest.computeIfAbsent(p.state.digest(), d -> new ArrayList<>()).add(p);
      }
    }
    if (byDigest.isEmpty()) {
      return 0;
    }
    Map<BlobDigest, StoredBlob> present =
        ctx.db()
            .call(
                "looking up blobs",
                () -> ctx.volumes().present(ctx.target().volumeId(), byDigest.keySet()));
    // Copy what the volume lacks, each digest once, in parallel within the global bound.
    Map<BlobDigest, java.util.concurrent.Future<Copied>> copies = new LinkedHashMap<>();
    for (Map.Entry<BlobDigest, List<Pending>> e : byDigest.entrySet()) {
      if (!present.containsKey(e.getKey())) {
        long size = e.getValue().get(0).state.size();
        copies.put(e.getKey(), ctx.io().submit(() -> copyBlob(e.getKey(), size)));
      }
    }
    long dedupHits = 0;
    for (Map.Entry<BlobDigest, List<Pending>> e : byDigest.entrySet()) {
      BlobDigest digest = e.getKey();
      List<Pending> users = e.getValue();
      StoredBlob blob = present.get(digest);
      if (blob == null) {
        Copied copied = await(copies.get(digest));
        if (copied.blob() == null) {
          for (Pending p : users) {
            fail(p, failures, copied.reason(), copied.detail());
          }
          continue;
        }
        blob = copied.blob();
        newBlobs.add(blob);
        dedupHits += users.size() - 1;
      } else {
        dedupHits += users.size();
      }
      for (Pending p : users) {
        if (p.state.size() != blob.rawSize()) {
          fail(
              p,
              failures,
              FailureReason.SIZE_MISMATCH,
              "it declares "
                  + p.state.size()
                  + " bytes but its blob "
                  + digest
                  + " has "
                  + blob.rawSize());
        } else {
          p.blob = blob;
        }
      }
    }
    if (!newBlobs.isEmpty()) {
      try {
        ctx.target().volume().sync();
      } catch (IOException e) {
        throw new SQLException("cannot make the cluster's blobs durable: " + e.getMessage(), e);
      }
      ctx.db()
          .call(
              "recording blobs",
              () -> {
                ctx.volumes().record(ctx.target().volumeId(), newBlobs);
                return null;
              });
    }
    return dedupHits;
  }

  /** A blob copied, or why not. */
  private record Copied(StoredBlob blob, FailureReason reason, String detail) {}

  private static Copied await(java.util.concurrent.Future<Copied> future) throws SQLException {
    try {
      return future.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw DatabaseRetry.asSql(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while copying blobs", e);
    }
  }

  /** Copies one blob, within the engine's bounds on copies in flight. */
  private Copied copyBlob(BlobDigest digest, long size) throws InterruptedException {
    boolean large = size >= LARGE_BLOB;
    ctx.metrics().blobTransferWaiting(1);
    ctx.blobPermits().acquire();
    try {
      if (large) {
        ctx.largePermits().acquire();
      }
    } catch (InterruptedException e) {
      ctx.blobPermits().release();
      throw e;
    } finally {
      ctx.metrics().blobTransferWaiting(-1);
    }
    long started = System.nanoTime();
    try (InputStream in = ctx.backup().blobs().openVerified(digest, size)) {
      return new Copied(ctx.target().volume().write(digest, size, in), null, null);
    } catch (BlobException e) {
      return new Copied(null, FailureReason.of(e.reason()), e.getMessage());
    } catch (IOException e) {
      return new Copied(null, FailureReason.BLOB_IO, "blob " + digest + ": " + e.getMessage());
    } finally {
      if (large) {
        ctx.largePermits().release();
      }
      ctx.blobPermits().release();
      ctx.metrics()
          .blobTransfer()
          .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  private void fail(Pending p, List<FailureRow> failures, FailureReason reason, String detail) {
    if (!p.failed) {
      p.failed = true;
      failures.add(ctx.failure(Phase.DATA, reason, sourceId, p.item.id(), p.location, detail));
      ctx.metrics().items("failed", p.item.type(), 1);
    }
  }

  private static List<String> distinctTags(List<String> names) {
    if (names.size() < 2) {
      return names;
    }
    Map<String, String> byKey = new LinkedHashMap<>();
    for (String n : names) {
      byKey.putIfAbsent(TagRegistry.key(n), n);
    }
    return List.copyOf(byKey.values());
  }

  private void commit(
      int seq,
      List<ItemRow> rows,
      List<TagRow> tagRows,
      List<TagLink> links,
      List<IdMapping> mappings,
      List<MountRow> mounts,
      List<FailureRow> failures,
      Counters counters)
      throws SQLException {
    ClusterWrite write =
        new ClusterWrite(
            ctx.operationId(),
            sourceId,
            ctx.instanceId(),
            idSpace,
            seq,
            rows,
            tagRows,
            links,
            mappings,
            mounts,
            failures,
            counters);
    long started = System.nanoTime();
    ctx.db()
        .call(
            "committing cluster " + seq + " of " + account.accountName(),
            () -> {
              try {
                ctx.mailboxes().commit(write);
              } catch (SQLException e) {
                // The connection may have died after the commit went through: the checkpoint
                // row says whether it did, so a retry never writes a cluster twice.
                if ((DatabaseRetry.isTransient(e) || e.getErrorCode() == DUPLICATE_KEY)
                    && ctx.mailboxes().clusterCommitted(ctx.operationId(), sourceId, seq)) {
                  return null;
                }
                throw e;
              }
              return null;
            });
    ctx.metrics()
        .clusterCommit()
        .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  // ---- policy skip: count what would have been restored --------------------------------------

  private AccountState countSkipped() throws IOException, SQLException {
    long count = 0;
    try (ItemStream stream = ctx.backup().items(sourceId, EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (stream.next() instanceof ItemEntry.Decoded(Item item, String location)
            && ctx.pointInTime().select(item).isPresent()
            && SystemFolder.byId(item.id()) == null) {
          count++;
        }
      }
    }
    ctx.mailboxes()
        .addCounters(
            ctx.operationId(), sourceId, ctx.instanceId(), new Counters(0, count, 0, 0, 0));
    ctx.metrics().items("skipped", null, count);
    return AccountState.SKIPPED;
  }
}
