package org.mailrestore.restore;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.mailrestore.mail.Account;

/**
 * Which parts of the backup to restore.
 *
 * @param domains only accounts of these domains; empty for all
 * @param accounts only these accounts (addresses or backup ids); empty for all
 * @param skipSystemAccounts leave out the server's own accounts (GAL sync, spam training...)
 * @param skipAliases do not restore aliases
 * @param skipLists do not restore distribution lists
 * @param skipCos do not restore classes of service (accounts get none)
 * @param skipProvisioning restore data into accounts that already exist; create nothing
 * @param provisioningOnly create domains, accounts... but restore no items (phase 1 only)
 */
public record Selection(
    Set<String> domains,
    Set<String> accounts,
    boolean skipSystemAccounts,
    boolean skipAliases,
    boolean skipLists,
    boolean skipCos,
    boolean skipProvisioning,
    boolean provisioningOnly) {

  public static final Selection ALL =
      new Selection(Set.of(), Set.of(), false, false, false, false, false, false);

  public Selection {
    domains = normalize(domains);
    accounts = normalize(accounts);
  }

  private static Set<String> normalize(Set<String> values) {
    return values == null
        ? Set.of()
        : values.stream()
            .map(v -> v.trim().toLowerCase(Locale.ROOT))
            .filter(v -> !v.isEmpty())
            .collect(Collectors.toUnmodifiableSet());
  }

  public boolean includes(Account account) {
    if (skipSystemAccounts && account.system()) {
      return false;
    }
    if (!domains.isEmpty() && !domains.contains(account.domain().toLowerCase(Locale.ROOT))) {
      return false;
    }
    return accounts.isEmpty()
        || accounts.contains(account.name().toLowerCase(Locale.ROOT))
        || accounts.contains(account.id().toLowerCase(Locale.ROOT));
  }

  public boolean includesDomain(String domain) {
    return domains.isEmpty() || domains.contains(domain.toLowerCase(Locale.ROOT));
  }
}
