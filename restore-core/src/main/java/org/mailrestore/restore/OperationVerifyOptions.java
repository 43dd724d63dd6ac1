package org.mailrestore.restore;

import java.util.Set;
import org.mailrestore.verify.Verifier;

/**
 * How an operation's restore is compared with its source, as it restored it: the same point in
 * time, the accounts under the names it gave them, the items it recorded as not restored excused.
 */
final class OperationVerifyOptions {

  private OperationVerifyOptions() {}

  /**
   * @param knownFailures the items the operation reported ({@link Verifier.Options#key})
   * @param accounts the accounts to compare, by address; empty for those the operation selected
   */
  static Verifier.Options of(
      RestoreRequest request, Set<String> knownFailures, boolean checkBlobs, Set<String> accounts) {
    Verifier.Options options =
        Verifier.Options.defaults()
            .withPointInTime(request.pointInTime())
            .withTargetName(request::targetName)
            .withKnownFailures(knownFailures)
            .withCheckBlobs(checkBlobs)
            // A copy beside the account (new-account, into) takes no alias; neither does a
            // restore that skipped them.
            .withCheckAliases(
                request.conflictPolicy() != ConflictPolicy.NEW_ACCOUNT
                    && request.selection().into() == null
                    && !request.selection().skipAliases());
    Set<String> chosen = accounts.isEmpty() ? request.selection().accounts() : accounts;
    return chosen.isEmpty() ? options : options.withAccounts(chosen);
  }
}
