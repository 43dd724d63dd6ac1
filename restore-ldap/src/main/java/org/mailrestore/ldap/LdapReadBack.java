package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.SearchResultEntry;
import java.io.IOException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.MailSource;

/**
 * The directory read back for verify: each account's entry as an {@link Account} (settings, status,
 * aliases, the attributes the layout carried), compared with the backup's account as the layout
 * keeps it. It holds no items.
 */
final class LdapReadBack implements RestoredStore {

  private final Directory directory;
  private final Layout layout;

  LdapReadBack(Directory directory, Layout layout) {
    this.directory = directory;
    this.layout = layout;
  }

  @Override
  public Set<Fidelity> fidelity() {
    return EnumSet.of(Fidelity.ACCOUNT_SETTINGS, Fidelity.ALIASES);
  }

  @Override
  public boolean holdsMailboxes() {
    return false;
  }

  @Override
  public Optional<RestoredAccount> account(String name) throws IOException {
    List<SearchResultEntry> found =
        directory.search(layout.base, layout.accountByAddress(name), "*");
    if (found.isEmpty()) {
      return Optional.empty();
    }
    SearchResultEntry entry = found.get(0);
    Account account = layout.read(entry, this::cosName);
    return Optional.of(
        new RestoredAccount(
            new ProvisionedAccount(0, layout.accountId(entry), name, false), account));
  }

  private @Nullable String cosName(String id) {
    try {
      List<SearchResultEntry> cos =
          directory.search(
              layout.base,
              com.unboundid.ldap.sdk.Filter.createANDFilter(
                  com.unboundid.ldap.sdk.Filter.createEqualityFilter("objectClass", "zimbraCOS"),
                  com.unboundid.ldap.sdk.Filter.createEqualityFilter("zimbraId", id)),
              "cn");
      return cos.isEmpty() ? id : cos.get(0).getAttributeValue("cn");
    } catch (IOException e) {
      return id;
    }
  }

  @Override
  public Account expected(Account backup) {
    return layout.expected(backup);
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids) {
    return Map.of();
  }

  @Override
  public long countItems(ProvisionedAccount account) {
    return 0;
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) {
    return Map.of();
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) {
    return List.of();
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account) {
    return Map.of();
  }

  @Override
  public MailSource asSource() throws IOException {
    throw new IOException(
        "a directory holds accounts only: export reads the mail from the target that holds it");
  }
}
