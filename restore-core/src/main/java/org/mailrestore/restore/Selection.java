package org.mailrestore.restore;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
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
 * @param into restore the one selected account into this other address (Zextras'
 *     doRestoreOnNewAccount); null to restore accounts as themselves
 * @param items only these items (ids in the source) of the accounts; empty for all. Folders and
 *     tags are always restored, so that an item lands where it was
 * @param folders only the content of these folders and their subfolders (ids in the source, or
 *     paths such as {@code /Inbox/Projects}); empty for all
 */
public record Selection(
    Set<String> domains,
    Set<String> accounts,
    boolean skipSystemAccounts,
    boolean skipAliases,
    boolean skipLists,
    boolean skipCos,
    boolean skipProvisioning,
    boolean provisioningOnly,
    @Nullable String into,
    Set<Integer> items,
    Set<String> folders) {

  public static final Selection ALL =
      new Selection(Set.of(), Set.of(), false, false, false, false, false, false);

  public Selection {
    domains = normalize(domains);
    accounts = normalize(accounts);
    into = into == null || into.isBlank() ? null : into.trim().toLowerCase(Locale.ROOT);
    items = items == null ? Set.of() : Set.copyOf(items);
    folders =
        folders == null
            ? Set.of()
            : folders.stream()
                .map(f -> f.trim().toLowerCase(Locale.ROOT))
                .filter(f -> !f.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    if (into != null && (accounts.size() != 1 || !into.matches("[^@\\s]+@[^@\\s]+"))) {
      throw new IllegalArgumentException(
          "restoring into another account takes one account and an address: give --account"
              + " once and --into user@domain");
    }
  }

  /** Whole accounts, as themselves. */
  public Selection(
      Set<String> domains,
      Set<String> accounts,
      boolean skipSystemAccounts,
      boolean skipAliases,
      boolean skipLists,
      boolean skipCos,
      boolean skipProvisioning,
      boolean provisioningOnly) {
    this(
        domains,
        accounts,
        skipSystemAccounts,
        skipAliases,
        skipLists,
        skipCos,
        skipProvisioning,
        provisioningOnly,
        null,
        Set.of(),
        Set.of());
  }

  /** The same, restoring into {@code into} only {@code items} and {@code folders}. */
  public Selection withScope(@Nullable String into, Set<Integer> items, Set<String> folders) {
    return new Selection(
        domains,
        accounts,
        skipSystemAccounts,
        skipAliases,
        skipLists,
        skipCos,
        skipProvisioning,
        provisioningOnly,
        into,
        items,
        folders);
  }

  /** Whether only some items or folders of the accounts are restored. */
  public boolean isPartial() {
    return !items.isEmpty() || !folders.isEmpty();
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
