package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;

/**
 * Phase 1 into composed targets: every part is provisioned, in the order the parts were given (a
 * directory first, then the servers that read it). What one part holds is held; an account is the
 * first part's, made or found in every part.
 */
final class ComposedProvisioning implements TargetProvisioning {

  private final ComposedTarget target;

  ComposedProvisioning(ComposedTarget target) {
    this.target = target;
  }

  private TargetProvisioning part(int index) {
    return target.part(index).provisioning();
  }

  /** What one part answers: whether it holds the thing. */
  @FunctionalInterface
  private interface Holds {
    boolean in(TargetProvisioning part) throws SQLException, IOException;
  }

  /** Asks every part, in order; held when one part holds it. */
  private boolean anyHolds(Holds holds) throws SQLException, IOException {
    boolean held = false;
    for (int part : target.provisioningOrder()) {
      held |= holds.in(part(part));
    }
    return held;
  }

  @Override
  public boolean ensureDomain(Domain domain) throws SQLException, IOException {
    return anyHolds(p -> p.ensureDomain(domain));
  }

  @Override
  public boolean ensureClassOfService(ClassOfService cos) throws SQLException, IOException {
    return anyHolds(p -> p.ensureClassOfService(cos));
  }

  @Override
  public boolean ensureList(DistributionList list) throws SQLException, IOException {
    return anyHolds(p -> p.ensureList(list));
  }

  /**
   * The first part's account. With a directory among the parts, an account it lacks is not there:
   * the directory is where the servers read their users, and asking a server for a user it cannot
   * know costs a refused login (Dovecot delays each by two seconds).
   */
  @Override
  public Optional<ProvisionedAccount> find(String name) throws SQLException, IOException {
    for (int part = 1; part < target.size(); part++) {
      if (target.part(part).contentTypes().isEmpty() && part(part).find(name).isEmpty()) {
        return Optional.empty();
      }
    }
    return part(0).find(name);
  }

  @Override
  public boolean idInUse(String id) throws SQLException, IOException {
    return anyHolds(p -> p.idInUse(id));
  }

  /** Makes the account in every part that lacks it, and brings the others up to date. */
  @Override
  public ProvisionedAccount create(Account account, String name, String id, boolean withCos)
      throws SQLException, IOException {
    ProvisionedAccount first = null;
    for (int part : target.provisioningOrder()) {
      TargetProvisioning p = part(part);
      Optional<ProvisionedAccount> existing = p.find(name);
      ProvisionedAccount made =
          existing.isPresent()
              ? p.update(existing.get(), account.withName(name), false, withCos)
              : p.create(account, name, id, withCos);
      if (part == 0) {
        first = existing.isPresent() ? made : made.withFresh(true);
      }
    }
    return java.util.Objects.requireNonNull(first, "the first part provisions every account");
  }

  @Override
  public ProvisionedAccount update(
      ProvisionedAccount existing, Account account, boolean replace, boolean withCos)
      throws SQLException, IOException {
    ProvisionedAccount first = existing;
    for (int part : target.provisioningOrder()) {
      TargetProvisioning p = part(part);
      Optional<ProvisionedAccount> held = p.find(existing.name());
      ProvisionedAccount made =
          held.isPresent()
              ? p.update(held.get(), account, replace, withCos)
              : p.create(
                  account.withName(existing.name()), existing.name(), existing.id(), withCos);
      if (part == 0) {
        first = made;
      }
    }
    return first;
  }

  @Override
  public void empty(ProvisionedAccount account) throws SQLException, IOException {
    for (int part = 0; part < target.size(); part++) {
      if (!target.part(part).contentTypes().isEmpty()) {
        part(part).empty(target.account(part, account));
      }
    }
  }

  @Override
  public List<String> addAliases(ProvisionedAccount account, List<String> aliases)
      throws SQLException, IOException {
    Set<String> taken = new LinkedHashSet<>();
    for (int part : target.provisioningOrder()) {
      TargetProvisioning p = part(part);
      if (p.holdsAliases()) {
        taken.addAll(p.addAliases(target.account(part, account), aliases));
      }
    }
    return List.copyOf(taken);
  }

  @Override
  public List<Omission> omissions(Account account) throws SQLException, IOException {
    List<Omission> all = new java.util.ArrayList<>();
    for (int part : target.provisioningOrder()) {
      all.addAll(part(part).omissions(account));
    }
    return all;
  }

  @Override
  public boolean holdsAliases() {
    for (int part : target.provisioningOrder()) {
      if (part(part).holdsAliases()) {
        return true;
      }
    }
    return false;
  }
}
