package org.mailrestore.restore;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * What a source holds, as a person asks before a restore: its accounts with their items (as they
 * are now, by type), the bytes of their content, what cannot be read, and the time range a
 * point-in-time restore can reach (from the oldest recorded change to the newest; null where the
 * source keeps no history, as a Maildir tree).
 *
 * @param unreadable accounts (and other parts) the source cannot read, with why
 */
public record SourceInspection(
    String source,
    int domains,
    int classesOfService,
    int lists,
    List<AccountInspection> accounts,
    List<String> unreadable,
    long items,
    long bytes,
    @Nullable Instant earliest,
    @Nullable Instant latest) {

  /**
   * One account.
   *
   * @param system one of the server's own accounts (spam training, GAL sync...)
   * @param items its items as they are now (deleted ones aside), folders and tags included
   * @param deleted items deleted since they were backed up: an undelete can bring them back
   * @param undecodable records that cannot be read
   */
  public record AccountInspection(
      String id,
      String name,
      boolean system,
      long items,
      Map<String, Long> itemsByType,
      long bytes,
      long deleted,
      long undecodable,
      @Nullable Instant earliest,
      @Nullable Instant latest) {}

  /** Reads every account of the source once, opening no content. */
  public static SourceInspection of(MailSource source) throws IOException {
    List<AccountInspection> accounts = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();
    source.domains().forEach(d -> unreadableOf(d, unreadable));
    source.classesOfService().forEach(c -> unreadableOf(c, unreadable));
    source.distributionLists().forEach(l -> unreadableOf(l, unreadable));
    long items = 0;
    long bytes = 0;
    Range range = new Range();
    for (String id : source.accountIds()) {
      switch (source.account(id)) {
        case Parsed.Failed<Account>(String location, String reason) ->
            unreadable.add(id + " (" + location + "): " + reason);
        case Parsed.Ok<Account>(Account account, String location) -> {
          AccountInspection a;
          try {
            a = inspect(source, account);
          } catch (IOException e) {
            unreadable.add(account.name() + ": " + e.getMessage());
            continue;
          }
          accounts.add(a);
          items += a.items();
          bytes += a.bytes();
          range.add(a.earliest());
          range.add(a.latest());
        }
      }
    }
    return new SourceInspection(
        source.describe(),
        source.domains().size(),
        source.classesOfService().size(),
        source.distributionLists().size(),
        accounts,
        unreadable,
        items,
        bytes,
        range.earliest,
        range.latest);
  }

  private static void unreadableOf(Parsed<?> parsed, List<String> unreadable) {
    if (parsed instanceof Parsed.Failed<?>(String location, String reason)) {
      unreadable.add(location + ": " + reason);
    }
  }

  private static AccountInspection inspect(MailSource source, Account account) throws IOException {
    Map<String, Long> byType = new TreeMap<>();
    long items = 0;
    long bytes = 0;
    long deleted = 0;
    long undecodable = 0;
    Range range = new Range();
    try (ItemStream stream = source.items(account.id(), EnumSet.allOf(ItemType.class))) {
      while (stream.hasNext()) {
        if (!(stream.next() instanceof ItemEntry.Decoded d)) {
          undecodable++;
          continue;
        }
        Item item = d.item();
        source.doneWithItems(account.id(), List.of(item)); // counted, never opened
        for (Revision r : item.revisions()) {
          range.add(r.validFrom());
          if (r.validTo() != Revision.OPEN) {
            range.add(r.validTo());
          }
        }
        if (item.isDeleted()) {
          deleted++;
          continue;
        }
        Revision now = item.latest().orElseThrow();
        items++;
        byType.merge(item.type().name().toLowerCase(Locale.ROOT), 1L, Long::sum);
        long size = d.passing() != null ? d.passing().size() : now.size();
        bytes += Math.max(0, size);
      }
    } finally {
      source.doneWith(account.id());
    }
    return new AccountInspection(
        account.id(),
        account.name(),
        account.system(),
        items,
        byType,
        bytes,
        deleted,
        undecodable,
        range.earliest,
        range.latest);
  }

  /** The oldest and newest instants seen; epoch 0 (a source without history) is no instant. */
  private static final class Range {
    private @Nullable Instant earliest;
    private @Nullable Instant latest;

    void add(long epochMillis) {
      if (epochMillis > 0) {
        add(Instant.ofEpochMilli(epochMillis));
      }
    }

    void add(@Nullable Instant t) {
      if (t == null) {
        return;
      }
      earliest = earliest == null || t.isBefore(earliest) ? t : earliest;
      latest = latest == null || t.isAfter(latest) ? t : latest;
    }
  }
}
