package org.mailrestore.restore;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import org.mailrestore.backup.BackupLayout;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mailstore.TargetAccount;

/**
 * Phase 1: domains, classes of service, accounts (with their mailboxes), aliases and lists.
 * Idempotent: a resumed operation finds what it created and goes on.
 */
final class Provisioner {

  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final RestoreContext ctx;
  private final Map<String, Integer> domainIds = new HashMap<>();

  Provisioner(RestoreContext ctx) {
    this.ctx = ctx;
  }

  void run() throws SQLException {
    Selection selection = ctx.request().selection();
    Map<String, AccountProgress> known = new HashMap<>();
    for (AccountProgress a : ctx.operations().accounts(ctx.operationId())) {
      known.put(a.sourceAccountId(), a);
    }
    if (!selection.skipProvisioning()) {
      provisionDomains(selection);
      if (!selection.skipCos()) {
        provisionClassesOfService();
      }
    }
    for (String sourceId : ctx.backup().accountIds()) {
      AccountProgress progress = known.get(sourceId);
      if (progress != null && progress.state() != AccountState.PENDING) {
        continue; // provisioned by an earlier run of this operation
      }
      switch (ctx.backup().account(sourceId)) {
        case Parsed.Ok<Account>(Account account, String location) -> {
          if (selection.includes(account)) {
            provisionAccount(account);
          }
        }
        case Parsed.Failed<Account>(String location, String reason) -> {
          ctx.operations().addAccount(ctx.operationId(), sourceId, sourceId);
          ctx.record(
              Phase.PROVISIONING, FailureReason.ACCOUNT_UNREADABLE, sourceId, 0, location, reason);
          ctx.operations().finishAccount(ctx.operationId(), sourceId, AccountState.FAILED, reason);
        }
      }
    }
    if (!selection.skipProvisioning() && !selection.skipLists()) {
      provisionLists(selection);
    }
  }

  private void provisionDomains(Selection selection) throws SQLException {
    for (Parsed<Domain> parsed : ctx.backup().domains()) {
      switch (parsed) {
        case Parsed.Ok<Domain>(Domain domain, String location) -> {
          if (selection.includesDomain(domain.name())) {
            domainIds.put(domain.name(), ctx.provisioning().ensureDomain(domain));
          }
        }
        case Parsed.Failed<Domain>(String location, String reason) ->
            ctx.record(
                Phase.PROVISIONING, FailureReason.PROVISIONING_UNREADABLE, "", 0, location, reason);
      }
    }
  }

  private void provisionClassesOfService() throws SQLException {
    for (Parsed<ClassOfService> parsed : ctx.backup().classesOfService()) {
      switch (parsed) {
        case Parsed.Ok<ClassOfService>(ClassOfService cos, String location) ->
            ctx.provisioning().ensureCos(cos);
        case Parsed.Failed<ClassOfService>(String location, String reason) ->
            ctx.record(
                Phase.PROVISIONING, FailureReason.PROVISIONING_UNREADABLE, "", 0, location, reason);
      }
    }
  }

  private void provisionLists(Selection selection) throws SQLException {
    for (Parsed<DistributionList> parsed : ctx.backup().distributionLists()) {
      switch (parsed) {
        case Parsed.Ok<DistributionList>(DistributionList list, String location) -> {
          if (selection.includesDomain(list.domain())) {
            ctx.provisioning().ensureList(list, domainId(list.domain()));
          }
        }
        case Parsed.Failed<DistributionList>(String location, String reason) ->
            ctx.record(
                Phase.PROVISIONING, FailureReason.PROVISIONING_UNREADABLE, "", 0, location, reason);
      }
    }
  }

  private int domainId(String name) throws SQLException {
    Integer id = domainIds.get(name);
    if (id == null) {
      // The backup has accounts of a domain whose file is missing: create it plain.
      id = ctx.provisioning().ensureDomain(new Domain(name, "active", Map.of()));
      domainIds.put(name, id);
    }
    return id;
  }

  private void provisionAccount(Account account) throws SQLException {
    RestoreRequest request = ctx.request();
    String target = request.targetName(account.name());
    ctx.operations().addAccount(ctx.operationId(), account.id(), target);
    Optional<TargetAccount> existing = ctx.provisioning().findAccount(target);
    Integer cosId =
        request.selection().skipCos() || account.cos() == null
            ? null
            : ctx.provisioning().ensureCos(new ClassOfService(account.cos(), Map.of()));
    TargetAccount into;
    boolean fresh;
    AccountState state = AccountState.PROVISIONED;
    if (existing.isPresent()) {
      into = existing.get();
      switch (request.conflictPolicy()) {
        case SKIP -> {
          state = AccountState.SKIPPED;
          fresh = false;
        }
        case REPLACE -> {
          ctx.provisioning()
              .updateAccount(
                  into.id(), cosId, account.status(), account.system(), account.attributes(), true);
          int mailbox = ctx.provisioning().ensureMailbox(into.id());
          ctx.provisioning().emptyMailbox(mailbox);
          into = new TargetAccount(into.id(), into.uuid(), into.name(), mailbox);
          fresh = true;
        }
        case MERGE, NEW_ACCOUNT -> {
          ctx.provisioning()
              .updateAccount(
                  into.id(),
                  cosId,
                  account.status(),
                  account.system(),
                  account.attributes(),
                  false);
          int mailbox = ctx.provisioning().ensureMailbox(into.id());
          into = new TargetAccount(into.id(), into.uuid(), into.name(), mailbox);
          fresh = false;
        }
        default -> throw new IllegalStateException("unhandled policy " + request.conflictPolicy());
      }
    } else if (request.selection().skipProvisioning()) {
      String detail = "account " + target + " does not exist and provisioning is skipped";
      ctx.record(
          Phase.PROVISIONING,
          FailureReason.ACCOUNT_MISSING,
          account.id(),
          0,
          BackupLayout.accountFile(account.id()),
          detail);
      ctx.operations().finishAccount(ctx.operationId(), account.id(), AccountState.FAILED, detail);
      return;
    } else {
      into =
          ctx.provisioning()
              .createAccount(
                  uuidFor(account),
                  target,
                  domainId(account.domain()),
                  cosId,
                  account.status(),
                  account.system(),
                  Json.fromMap(account.attributes()));
      fresh = true;
    }
    // Aliases belong to the original address, not to a copy restored beside it.
    if (state != AccountState.SKIPPED
        && !request.selection().skipAliases()
        && request.conflictPolicy() != ConflictPolicy.NEW_ACCOUNT) {
      List<String> taken = ctx.provisioning().addAliases(into.id(), account.aliases());
      for (String alias : taken) {
        ctx.record(
            Phase.PROVISIONING,
            FailureReason.ALIAS_TAKEN,
            account.id(),
            0,
            BackupLayout.accountFile(account.id()),
            "alias " + alias + " belongs to another account; not added to " + target);
      }
    }
    ctx.operations()
        .accountProvisioned(
            ctx.operationId(),
            account.id(),
            target,
            into.id(),
            into.uuid(),
            into.mailboxId(),
            ctx.mailboxes().sourceRef(ctx.backup().accountRef(account.id())),
            fresh,
            state);
  }

  /** Keeps the account's id when it is a UUID the target does not use; else a new one. */
  private String uuidFor(Account account) throws SQLException {
    if (UUID_SHAPE.matcher(account.id()).matches()
        && ctx.provisioning().findAccountByUuid(account.id()).isEmpty()) {
      return account.id();
    }
    return UUID.randomUUID().toString();
  }
}
