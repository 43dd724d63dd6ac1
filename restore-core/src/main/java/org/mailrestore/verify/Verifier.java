package org.mailrestore.verify;

import java.io.IOException;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.restore.bookkeeping.IdMap;
import org.mailrestore.restore.data.FolderGraph;
import org.mailrestore.source.MailSource;

/**
 * Compares what a target holds with the source it was restored from: every account, folder, item,
 * flag, tag, grant and mountpoint, and every content's bytes, as far as the target keeps them
 * ({@link RestoredStore#fidelity()}). It reads the source as the restore does and follows the
 * restore's id map, in batches, so it runs in bounded memory; it also counts the target's items, so
 * a duplicate cannot hide.
 *
 * <p>It expects a restore into an empty target: folders renamed or re-homed by the restore (see
 * {@link FolderGraph}) are expected under their new names.
 */
public final class Verifier {

  /** What to compare. */
  public record Options(
      PointInTime pointInTime,
      UnaryOperator<String> targetName,
      Set<String> accounts,
      boolean checkBlobs,
      boolean checkAliases,
      Set<String> knownFailures,
      int maxListed) {

    public static Options defaults() {
      return new Options(
          PointInTime.LATEST, UnaryOperator.identity(), Set.of(), true, true, Set.of(), 200);
    }

    public Options withKnownFailures(Set<String> keys) {
      return new Options(
          pointInTime, targetName, accounts, checkBlobs, checkAliases, keys, maxListed);
    }

    public Options withPointInTime(PointInTime pit) {
      return new Options(
          pit, targetName, accounts, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    /** Only these accounts (addresses or source ids). */
    public Options withAccounts(Set<String> names) {
      Set<String> lower = new HashSet<>();
      names.forEach(n -> lower.add(n.toLowerCase(Locale.ROOT)));
      return new Options(
          pointInTime, targetName, lower, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    /** Where each source account was restored to (for the new-account policy). */
    public Options withTargetName(UnaryOperator<String> names) {
      return new Options(
          pointInTime, names, accounts, checkBlobs, checkAliases, knownFailures, maxListed);
    }

    public Options withCheckAliases(boolean check) {
      return new Options(
          pointInTime, targetName, accounts, checkBlobs, check, knownFailures, maxListed);
    }

    public Options withCheckBlobs(boolean check) {
      return new Options(
          pointInTime, targetName, accounts, check, checkAliases, knownFailures, maxListed);
    }

    /** The key of a failed item in {@link #knownFailures}. */
    public static String key(String sourceAccountId, int itemId) {
      return sourceAccountId + ":" + itemId;
    }
  }

  private final IdMap idMap;
  private final RestoredStore store;
  private final int accountsAtOnce;

  /**
   * @param idMap the restore's map from source ids to target ids
   * @param store what the target holds
   * @param accountsAtOnce accounts compared at once (the restore's bound, {@link
   *     org.mailrestore.restore.Concurrency#accounts()}); the report is the same for any number
   */
  public Verifier(IdMap idMap, RestoredStore store, int accountsAtOnce) {
    if (accountsAtOnce < 1) {
      throw new IllegalArgumentException("accounts at once must be at least 1");
    }
    this.idMap = idMap;
    this.store = store;
    this.accountsAtOnce = accountsAtOnce;
  }

  public VerifyReport verify(MailSource source, Options options) throws SQLException, IOException {
    return new VerifyRun(source, options, idMap, store, accountsAtOnce).run();
  }
}
