package org.mailrestore.mailstore;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Json;

/** Phase 1 in the mailstore: rows in its provisioning tables, a mailbox per account. */
final class MailstoreProvisioning implements TargetProvisioning {

  private final ProvisioningStore store;
  private final Map<String, Integer> domainIds = new ConcurrentHashMap<>();

  MailstoreProvisioning(ProvisioningStore store) {
    this.store = store;
  }

  @Override
  public boolean ensureDomain(Domain domain) throws SQLException {
    domainIds.put(domain.name(), store.ensureDomain(domain));
    return true;
  }

  @Override
  public boolean ensureClassOfService(ClassOfService cos) throws SQLException {
    store.ensureCos(cos);
    return true;
  }

  @Override
  public boolean ensureList(DistributionList list) throws SQLException {
    store.ensureList(list, domainId(list.domain()));
    return true;
  }

  /** A domain's id; a domain the source names but does not describe is created plain. */
  private int domainId(String name) throws SQLException {
    Integer id = domainIds.get(name);
    if (id == null) {
      id = store.ensureDomain(Domain.active(name));
      domainIds.put(name, id);
    }
    return id;
  }

  @Override
  public Optional<ProvisionedAccount> find(String name) throws SQLException {
    return store.findAccount(name).map(MailstoreProvisioning::ref);
  }

  /** An account of the mailstore; key 0 when it has no mailbox yet. */
  static ProvisionedAccount ref(TargetAccount a) {
    return new ProvisionedAccount(
        a.mailboxId() == null ? 0 : a.mailboxId(), a.uuid(), a.name(), false);
  }

  @Override
  public boolean idInUse(String id) throws SQLException {
    return store.findAccountByUuid(id).isPresent();
  }

  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws SQLException {
    String domain =
        account.domain() != null ? account.domain() : name.substring(name.indexOf('@') + 1);
    TargetAccount created =
        store.createAccount(
            id,
            name,
            domainId(domain),
            cosId(account, withCos),
            account.status(),
            account.system(),
            Json.fromMap(account.attributes()));
    return ref(created).withFresh(true);
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos)
      throws SQLException {
    TargetAccount row = row(existing);
    store.updateAccount(
        row.id(),
        cosId(account, withCos),
        account.status(),
        account.system(),
        account.attributes(),
        replace);
    int mailbox = store.ensureMailbox(row.id());
    return new ProvisionedAccount(mailbox, row.uuid(), row.name(), false);
  }

  private Integer cosId(Account account, boolean withCos) throws SQLException {
    return !withCos || account.cos() == null
        ? null
        : store.ensureCos(new ClassOfService(account.cos(), Map.of()));
  }

  private TargetAccount row(ProvisionedAccount account) throws SQLException {
    return store
        .findAccountByUuid(account.id())
        .orElseThrow(() -> new SQLException("account " + account.name() + " disappeared"));
  }

  @Override
  public void empty(ProvisionedAccount account) throws SQLException {
    store.emptyMailbox(account.key());
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases)
      throws SQLException {
    return store.addAliases(row(account).id(), aliases);
  }
}
