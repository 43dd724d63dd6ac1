package org.mailrestore.restore;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.PointInTime;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * What a restore would do, found by reading the source and the target and writing nothing (a dry
 * run): each account's action under the request's policy, and the items and bytes it would copy
 * (with {@code items} selected, only those; a {@code folders} selection is not narrowed here: the
 * counts are then the accounts' whole content).
 *
 * @param unreadable accounts the source cannot read: the restore would record them as failed
 */
public record RestorePlan(
    String source,
    String target,
    ConflictPolicy policy,
    List<AccountPlan> accounts,
    List<String> unreadable,
    long items,
    long bytes) {

  /** What happens to one account. */
  public enum Action {
    /** It does not exist in the target: created. */
    CREATE,
    /** It exists: what the backup has is added (the merge and new-account policies). */
    MERGE,
    /** It exists: emptied, then restored (the replace policy). */
    REPLACE,
    /** It exists and the policy is skip: left alone, nothing copied. */
    SKIP,
    /** It does not exist and provisioning is skipped: the restore would fail it. */
    MISSING
  }

  /**
   * One account.
   *
   * @param into the address it is restored as (another one under the new-account policy)
   * @param itemsByType the items to copy by type (message, contact, folder...)
   */
  public record AccountPlan(
      String account,
      String into,
      Action action,
      long items,
      long bytes,
      Map<String, Long> itemsByType,
      long undecodable) {}

  /** Reads the source's selected accounts and looks each up in the target. */
  public static RestorePlan of(
      MailSource source,
      String sourceName,
      TargetProvisioning target,
      String targetName,
      RestoreRequest request)
      throws SQLException, IOException {
    List<AccountPlan> accounts = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    PointInTime pointInTime = request.pointInTime();
    long items = 0;
    long bytes = 0;
    for (String id : source.accountIds()) {
      switch (source.account(id)) {
        case Parsed.Failed<Account>(String location, String reason) ->
            unreadable.add(id + " (" + location + "): " + reason);
        case Parsed.Ok<Account>(Account account, String location) -> {
          if (!request.selection().includes(account)) {
            continue;
          }
          String into = request.targetName(account.name());
          Optional<ProvisionedAccount> existing = target.find(into);
          Action action = action(existing.isPresent(), request);
          AccountPlan plan =
              action == Action.SKIP || action == Action.MISSING
                  ? new AccountPlan(account.name(), into, action, 0, 0, Map.of(), 0)
                  : count(source, account, into, action, pointInTime, request.selection());
          accounts.add(plan);
          items += plan.items();
          bytes += plan.bytes();
        }
      }
    }
    return new RestorePlan(
        sourceName, targetName, request.conflictPolicy(), accounts, unreadable, items, bytes);
  }

  private static Action action(boolean exists, RestoreRequest request) {
    if (!exists) {
      return request.selection().skipProvisioning() ? Action.MISSING : Action.CREATE;
    }
    return switch (request.conflictPolicy()) {
      case SKIP -> Action.SKIP;
      case REPLACE -> Action.REPLACE;
      case MERGE, NEW_ACCOUNT -> Action.MERGE;
    };
  }

  private static AccountPlan count(
      MailSource source,
      Account account,
      String into,
      Action action,
      PointInTime pointInTime,
      Selection selection)
      throws IOException {
    Map<String, Long> byType = new TreeMap<>();
    long items = 0;
    long bytes = 0;
    long undecodable = 0;
    try (ItemStream stream = source.items(account.id(), EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        if (!(entry instanceof ItemEntry.Decoded d)) {
          undecodable++;
          continue;
        }
        source.doneWithItems(account.id(), List.of(d.item())); // counted, never opened
        Optional<Revision> state = pointInTime.select(d.item());
        if (state.isEmpty()
            || (!selection.items().isEmpty()
                && !d.item().type().isContainer()
                && !selection.items().contains(d.item().id()))) {
          continue;
        }
        items++;
        byType.merge(d.item().type().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
        long size = d.passing() != null ? d.passing().size() : state.get().size();
        bytes += Math.max(0, size);
      }
    }
    return new AccountPlan(account.name(), into, action, items, bytes, byType, undecodable);
  }
}
