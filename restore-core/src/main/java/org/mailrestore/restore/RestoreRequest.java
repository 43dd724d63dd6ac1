package org.mailrestore.restore;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.TargetSpec;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.source.SourceSpec;

/**
 * What an administrator asked for. Persisted with the operation, so a resumed operation does
 * exactly what was asked.
 *
 * @param asOf restore the state at this instant; null for the latest state
 * @param undeleteFrom also restore the items deleted from this instant on (inclusive), in their
 *     state just before the deletion; null for none
 * @param undeleteTo the end of the undelete window (exclusive); null for up to {@code asOf}
 * @param newAccountSuffix for {@link ConflictPolicy#NEW_ACCOUNT}: appended to the local part
 * @param concurrentAccounts accounts restored at once; 0 for the default of the machine
 * @param clusterSize items per cluster (one transaction each); 0 for the default
 * @param targets where to restore to: one target, or several that each take the kinds of item they
 *     carry (decision 0034); empty for the engine's default targets
 * @param notice who hears of its end; null for {@link Notice#DEFAULT}
 */
public record RestoreRequest(
    SourceSpec source,
    Selection selection,
    @Nullable Instant asOf,
    @Nullable Instant undeleteFrom,
    @Nullable Instant undeleteTo,
    ConflictPolicy conflictPolicy,
    String newAccountSuffix,
    int concurrentAccounts,
    int clusterSize,
    List<TargetSpec> targets,
    Notice notice) {

  public static final int DEFAULT_CLUSTER_SIZE = 1000;
  public static final String DEFAULT_SUFFIX = "-restored";

  public RestoreRequest {
    if (source == null) {
      throw new IllegalArgumentException("a restore needs a source");
    }
    selection = selection == null ? Selection.ALL : selection;
    conflictPolicy = conflictPolicy == null ? ConflictPolicy.MERGE : conflictPolicy;
    newAccountSuffix =
        newAccountSuffix == null || newAccountSuffix.isBlank() ? DEFAULT_SUFFIX : newAccountSuffix;
    if (concurrentAccounts < 0 || clusterSize < 0) {
      throw new IllegalArgumentException("concurrency and cluster size must not be negative");
    }
    var unused = new PointInTime(asOf, undeleteFrom, undeleteTo); // checks the window
    targets = targets == null ? List.of() : List.copyOf(targets);
    notice = notice == null ? Notice.DEFAULT : notice;
  }

  /** A request whose end the configured recipients hear of. */
  public RestoreRequest(
      SourceSpec source,
      Selection selection,
      @Nullable Instant asOf,
      @Nullable Instant undeleteFrom,
      @Nullable Instant undeleteTo,
      ConflictPolicy conflictPolicy,
      String newAccountSuffix,
      int concurrentAccounts,
      int clusterSize,
      List<TargetSpec> targets) {
    this(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        Notice.DEFAULT);
  }

  /** Which state of each item this request restores. */
  public PointInTime pointInTime() {
    return new PointInTime(asOf, undeleteFrom, undeleteTo);
  }

  /** Restores everything from a local backup with the defaults. */
  public static RestoreRequest local(String path) {
    return of(SourceSpec.of("backup", path));
  }

  /** Restores everything from a source with the defaults. */
  public static RestoreRequest of(SourceSpec source) {
    return new RestoreRequest(
        source,
        Selection.ALL,
        null,
        null,
        null,
        ConflictPolicy.MERGE,
        DEFAULT_SUFFIX,
        0,
        0,
        List.of());
  }

  public RestoreRequest withSource(SourceSpec value) {
    return new RestoreRequest(
        value,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        notice);
  }

  public RestoreRequest withPolicy(ConflictPolicy policy) {
    return new RestoreRequest(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        policy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        notice);
  }

  public RestoreRequest withSelection(Selection value) {
    return new RestoreRequest(
        source,
        value,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        notice);
  }

  public RestoreRequest withAsOf(Instant value) {
    return new RestoreRequest(
        source,
        selection,
        value,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        notice);
  }

  public RestoreRequest withUndelete(Instant from, Instant to) {
    return new RestoreRequest(
        source,
        selection,
        asOf,
        from,
        to,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        notice);
  }

  public RestoreRequest withClusterSize(int value) {
    return new RestoreRequest(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        value,
        targets,
        notice);
  }

  public RestoreRequest withTargets(List<TargetSpec> value) {
    return new RestoreRequest(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        value,
        notice);
  }

  public RestoreRequest withNotice(Notice value) {
    return new RestoreRequest(
        source,
        selection,
        asOf,
        undeleteFrom,
        undeleteTo,
        conflictPolicy,
        newAccountSuffix,
        concurrentAccounts,
        clusterSize,
        targets,
        value);
  }

  public int effectiveClusterSize() {
    return clusterSize == 0 ? DEFAULT_CLUSTER_SIZE : clusterSize;
  }

  /** The address an account is restored into under this request's policy. */
  public String targetName(String backupName) {
    if (selection.into() != null) {
      return selection.into();
    }
    if (conflictPolicy != ConflictPolicy.NEW_ACCOUNT) {
      return backupName;
    }
    int at = backupName.indexOf('@');
    return backupName.substring(0, at) + newAccountSuffix + backupName.substring(at);
  }
}
