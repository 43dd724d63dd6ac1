package org.mailrestore.restore.provisioning;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Pattern;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.ProvisioningRefusedException;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.AccountProgress;
import org.mailrestore.restore.AccountState;
import org.mailrestore.restore.ConflictPolicy;
import org.mailrestore.restore.Phase;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.Selection;
import org.mailrestore.restore.bookkeeping.AccountStore;
import org.mailrestore.restore.run.NotCarried;
import org.mailrestore.restore.run.OperationRun;
import org.mailrestore.restore.run.Records;
import org.mailrestore.restore.run.Workers;

/**
 * Phase 1: domains, classes of service, accounts (with their mailboxes), aliases and lists, in the
 * target, under the request's conflict policy. Idempotent: a resumed operation finds what it
 * created and goes on. Accounts are provisioned as many at once as the operation restores at once
 * (decision 0065); domains, classes of service and lists one after another, before and after them.
 */
public final class Provisioner {

  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final OperationRun run;
  private final Records records;
  private final TargetProvisioning target;
  private final AccountStore accounts;
  private final NotCarried notCarried;
  private final Workers workers;

  public Provisioner(OperationRun run, Records records, Workers workers) {
    this.run = run;
    this.records = records;
    this.workers = workers;
    this.target = run.target().provisioning();
    this.accounts = records.books().accounts();
    this.notCarried = new NotCarried(run.id(), records, Phase.PROVISIONING);
  }

  public void run() throws SQLException, IOException {
    Selection selection = run.request().selection();
    Map<String, AccountProgress> known = new HashMap<>();
    for (AccountProgress a : accounts.list(run.id())) {
      known.put(a.sourceAccountId(), a);
    }
    if (!selection.skipProvisioning()) {
      provisionDomains(selection);
      if (!selection.skipCos()) {
        provisionClassesOfService();
      }
    }
    Queue<String> todo = new ConcurrentLinkedQueue<>();
    for (String sourceId : run.source().accountIds()) {
      AccountProgress progress = known.get(sourceId);
      if (progress == null || progress.state() == AccountState.PENDING) {
        todo.add(sourceId); // else provisioned by an earlier run of this operation
      }
    }
    provisionAll(todo, selection);
    if (!selection.skipProvisioning() && !selection.skipLists()) {
      provisionLists(selection);
    }
  }

  /**
   * Provisions the accounts as many at once as the operation restores at once: each is one or a few
   * round trips to the target (a login, a directory search), so one after another the phase took as
   * long as its round trips added up. A cancel stops the workers from taking new accounts (those
   * left are provisioned when the operation resumes).
   */
  private void provisionAll(Queue<String> todo, Selection selection)
      throws SQLException, IOException {
    try {
      workers.runAll(
          Math.min(workers.concurrency().accounts(), todo.size()),
          () -> {
            String sourceId;
            while (!run.cancel().raised() && (sourceId = todo.poll()) != null) {
              provisionOne(sourceId, selection);
            }
            return null;
          },
          "provisioning accounts");
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private void provisionOne(String sourceId, Selection selection) throws SQLException, IOException {
    switch (run.source().account(sourceId)) {
      case Parsed.Ok<Account>(Account account, String location) -> {
        if (selection.includes(account)) {
          try {
            provisionAccount(account, location);
          } catch (ProvisioningRefusedException e) {
            // The target refused this account (its schema, its rights): the others go on.
            String detail = refusal(e);
            record(FailureReason.TARGET_REFUSED, account.id(), location, detail);
            accounts.finish(run.id(), account.id(), AccountState.FAILED, detail);
          }
        }
      }
      case Parsed.Failed<Account>(String location, String reason) -> {
        accounts.add(run.id(), sourceId, sourceId);
        record(FailureReason.ACCOUNT_UNREADABLE, sourceId, location, reason);
        accounts.finish(run.id(), sourceId, AccountState.FAILED, reason);
      }
    }
  }

  private void provisionDomains(Selection selection) throws SQLException, IOException {
    for (Parsed<Domain> parsed : run.source().domains()) {
      switch (parsed) {
        case Parsed.Ok<Domain>(Domain domain, String location) -> {
          try {
            if (selection.includesDomain(domain.name()) && !target.ensureDomain(domain)) {
              notCarried.once("domains", location);
            }
          } catch (ProvisioningRefusedException e) {
            record(FailureReason.TARGET_REFUSED, "", location, refusal(e));
          }
        }
        case Parsed.Failed<Domain>(String location, String reason) ->
            record(FailureReason.PROVISIONING_UNREADABLE, "", location, reason);
      }
    }
  }

  private void provisionClassesOfService() throws SQLException, IOException {
    for (Parsed<ClassOfService> parsed : run.source().classesOfService()) {
      switch (parsed) {
        case Parsed.Ok<ClassOfService>(ClassOfService cos, String location) -> {
          try {
            if (!target.ensureClassOfService(cos)) {
              notCarried.once("classes of service", location);
            }
          } catch (ProvisioningRefusedException e) {
            record(FailureReason.TARGET_REFUSED, "", location, refusal(e));
          }
        }
        case Parsed.Failed<ClassOfService>(String location, String reason) ->
            record(FailureReason.PROVISIONING_UNREADABLE, "", location, reason);
      }
    }
  }

  private void provisionLists(Selection selection) throws SQLException, IOException {
    for (Parsed<DistributionList> parsed : run.source().distributionLists()) {
      switch (parsed) {
        case Parsed.Ok<DistributionList>(DistributionList list, String location) -> {
          try {
            if (selection.includesDomain(list.domain()) && !target.ensureList(list)) {
              notCarried.once("distribution lists", location);
            }
          } catch (ProvisioningRefusedException e) {
            record(FailureReason.TARGET_REFUSED, "", location, refusal(e));
          }
        }
        case Parsed.Failed<DistributionList>(String location, String reason) ->
            record(FailureReason.PROVISIONING_UNREADABLE, "", location, reason);
      }
    }
  }

  private void provisionAccount(Account account, String location) throws SQLException, IOException {
    RestoreRequest request = run.request();
    String name = request.targetName(account.name());
    boolean withCos = !request.selection().skipCos();
    accounts.add(run.id(), account.id(), name);
    // Aliases belong to the original address, not to a copy restored beside it.
    boolean withAliases =
        !request.selection().skipAliases()
            && request.conflictPolicy() != ConflictPolicy.NEW_ACCOUNT
            && request.selection().into() == null;
    Account given = withAliases ? account : account.withoutAliases();
    Optional<ProvisionedAccount> existing = target.find(name);
    ProvisionedAccount into;
    AccountState state = AccountState.PROVISIONED;
    if (existing.isPresent()) {
      into =
          switch (request.conflictPolicy()) {
            case SKIP -> {
              state = AccountState.SKIPPED;
              yield existing.get().withFresh(false);
            }
            case REPLACE -> {
              ProvisionedAccount replaced = target.update(existing.get(), given, true, withCos);
              target.empty(replaced);
              records.books().idMap().forget(replaced.key());
              yield replaced.withFresh(true);
            }
            case MERGE, NEW_ACCOUNT ->
                target.update(existing.get(), given, false, withCos).withFresh(false);
          };
    } else if (request.selection().skipProvisioning()) {
      String detail = "account " + name + " does not exist and provisioning is skipped";
      record(FailureReason.ACCOUNT_MISSING, account.id(), location, detail);
      accounts.finish(run.id(), account.id(), AccountState.FAILED, detail);
      return;
    } else {
      into = target.create(given, name, idFor(account), withCos).withFresh(true);
    }
    if (state != AccountState.SKIPPED) {
      for (TargetProvisioning.Omission left : target.omissions(account.withName(name))) {
        if (left.ofThisAccount()) {
          records.record(
              run.id(),
              Phase.PROVISIONING,
              FailureReason.NOT_CARRIED,
              account.id(),
              0,
              location,
              left.detail());
        } else {
          notCarried.once(left.detail(), location, left.detail());
        }
      }
    }
    if (state != AccountState.SKIPPED && withAliases && !account.aliases().isEmpty()) {
      if (!target.holdsAliases()) {
        notCarried.once("aliases", location);
      } else {
        List<String> taken = target.addAliases(into, account.aliases());
        for (String alias : taken) {
          record(
              FailureReason.ALIAS_TAKEN,
              account.id(),
              location,
              "alias " + alias + " belongs to another account; not added to " + name);
        }
      }
    }
    int sourceRef = records.books().idMap().sourceRef(run.source().accountRef(account.id()));
    accounts.provisioned(run.id(), account.id(), into, sourceRef, state);
  }

  /** Keeps the account's id when it is a UUID the target does not use; else a new one. */
  private String idFor(Account account) throws SQLException, IOException {
    if (UUID_SHAPE.matcher(account.id()).matches() && !target.idInUse(account.id())) {
      return account.id();
    }
    return UUID.randomUUID().toString();
  }

  private static String refusal(ProvisioningRefusedException e) {
    return java.util.Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName());
  }

  private void record(FailureReason reason, String sourceId, String location, String detail)
      throws SQLException {
    records.record(run.id(), Phase.PROVISIONING, reason, sourceId, 0, location, detail);
  }
}
