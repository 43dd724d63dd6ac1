package org.mailrestore.verify;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.RestoredStore.Fidelity;
import org.mailrestore.destination.RestoredStore.RestoredAccount;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Parsed;
import org.mailrestore.restore.bookkeeping.IdMap;
import org.mailrestore.restore.bookkeeping.IdSpace;
import org.mailrestore.source.MailSource;

/**
 * One verification: its findings and counters, and the account-level checks. Folders, content and
 * grants are checked by {@link FolderCheck}, {@link ContentCheck} and {@link GrantCheck}.
 */
final class VerifyRun {

  /** Characters of a value a difference shows; a longer one is cut. */
  private static final int SHOWN_CHARACTERS = 120;

  final MailSource source;
  final Verifier.Options options;
  final IdMap idMap;
  final RestoredStore store;
  final Set<Fidelity> fidelity;
  private final int accountsAtOnce;
  private final List<String> differences = new ArrayList<>();
  private long differenceCount;
  private long excused;
  long items;
  long blobsChecked;

  /**
   * Contents already read, so that each is read once: the most recent {@link #BLOBS_REMEMBERED}
   * only, so that a verify of a whole server does not hold every digest it met (a content met again
   * after that many others is read again). Shared by the accounts checked at once.
   */
  final RecentDigests blobsSeen;

  static final int BLOBS_REMEMBERED = 100_000;

  /** Each selected source account's account in the target, by source account id. */
  final Map<String, RestoredAccount> targets;

  /** Each selected source account's id map, by source account id. */
  final Map<String, IdSpace> spaces;

  /**
   * @param accountsAtOnce accounts checked at once: a target read over the network spends most of a
   *     verify waiting for the server, which can answer several accounts at a time
   */
  VerifyRun(
      MailSource source,
      Verifier.Options options,
      IdMap idMap,
      RestoredStore store,
      int accountsAtOnce) {
    this.source = source;
    this.options = options;
    this.idMap = idMap;
    this.store = store;
    this.fidelity = store.fidelity();
    this.accountsAtOnce = accountsAtOnce;
    this.blobsSeen = new RecentDigests(BLOBS_REMEMBERED);
    this.targets = new HashMap<>();
    this.spaces = new HashMap<>();
  }

  /**
   * One account's run: its own findings and counters, the rest shared with {@code whole}. Its
   * findings are added to the whole run's in the order of the accounts, so the report lists the
   * same differences whether accounts were checked one at a time or several at once.
   */
  private VerifyRun(VerifyRun whole) {
    this.source = whole.source;
    this.options = whole.options;
    this.idMap = whole.idMap;
    this.store = whole.store;
    this.fidelity = whole.fidelity;
    this.accountsAtOnce = 1;
    this.blobsSeen = whole.blobsSeen;
    this.targets = whole.targets;
    this.spaces = whole.spaces;
  }

  VerifyReport run() throws SQLException, IOException {
    List<Account> accounts = new ArrayList<>();
    Set<String> unmatched = new TreeSet<>(options.accounts());
    for (String id : source.accountIds()) {
      if (!(source.account(id) instanceof Parsed.Ok<Account>(Account a, String location))) {
        continue;
      }
      if (options.accounts().isEmpty()
          || options.accounts().contains(a.name().toLowerCase(Locale.ROOT))
          || options.accounts().contains(a.id().toLowerCase(Locale.ROOT))) {
        unmatched.remove(a.name().toLowerCase(Locale.ROOT));
        unmatched.remove(a.id().toLowerCase(Locale.ROOT));
        accounts.add(a);
      }
      // Every account's, checked or not: a checked account's mountpoint may point into any.
      Optional<RestoredAccount> target = store.account(options.targetName().apply(a.name()));
      Optional<Integer> ref = idMap.findSourceRef(source.accountRef(a.id()));
      if (target.isPresent()) {
        targets.put(a.id(), target.get());
        if (ref.isPresent() && target.get().ref().key() != 0) {
          spaces.put(a.id(), new IdSpace(target.get().ref().key(), ref.get()));
        }
      }
    }
    // A name that matches nothing is a typo or the wrong source, never a silent pass.
    unmatched.forEach(n -> differ("account " + n + " is not in the source (no readable account)"));
    if (accountsAtOnce <= 1 || accounts.size() <= 1) {
      for (Account account : accounts) {
        add(checkAccount(account));
      }
    } else {
      checkAccountsAtOnce(accounts);
    }
    return new VerifyReport(
        accounts.size(), items, blobsChecked, differenceCount, excused, List.copyOf(differences));
  }

  private VerifyRun checkAccount(Account account) throws SQLException, IOException {
    VerifyRun run = new VerifyRun(this);
    run.verifyAccount(account);
    source.doneWith(account.id());
    return run;
  }

  private void checkAccountsAtOnce(List<Account> accounts) throws SQLException, IOException {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(accountsAtOnce, accounts.size()),
            Thread.ofPlatform().daemon().name("verify-", 1).factory());
    try {
      List<Future<VerifyRun>> runs = new ArrayList<>();
      for (Account account : accounts) {
        runs.add(pool.submit(() -> checkAccount(account)));
      }
      for (Future<VerifyRun> run : runs) {
        add(run.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("verify interrupted");
    } catch (ExecutionException e) {
      switch (e.getCause()) {
        case SQLException sql -> throw sql;
        case IOException io -> throw io;
        case RuntimeException runtime -> throw runtime;
        case Error error -> throw error;
        default -> throw new IllegalStateException(e.getCause());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Adds one account's findings and counters to this run's. */
  private void add(VerifyRun account) {
    items += account.items;
    blobsChecked += account.blobsChecked;
    excused += account.excused;
    differenceCount += account.differenceCount;
    for (String difference : account.differences) {
      if (differences.size() < options.maxListed()) {
        differences.add(difference);
      }
    }
  }

  void differ(String message) {
    differenceCount++;
    if (differences.size() < options.maxListed()) {
      differences.add(message);
    }
  }

  boolean isKnownFailure(String sourceId, int itemId) {
    if (options.knownFailures().contains(Verifier.Options.key(sourceId, itemId))) {
      excused++;
      return true;
    }
    return false;
  }

  void check(String what, String field, Object expected, Object actual) {
    if (Objects.equals(expected, actual)) {
      return;
    }
    if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
      // Only the keys that differ: a contact's picture alone is some 100,000 characters.
      Set<Object> keys = new TreeSet<>(Comparator.comparing(String::valueOf));
      keys.addAll(e.keySet());
      keys.addAll(a.keySet());
      List<String> differing = new ArrayList<>();
      for (Object key : keys) {
        if (!Objects.equals(e.get(key), a.get(key))) {
          differing.add(key + " is " + shown(a.get(key)) + ", expected " + shown(e.get(key)));
        }
      }
      differ(what + ": " + field + ": " + String.join("; ", differing));
    } else {
      differ(what + ": " + field + " is " + shown(actual) + ", expected " + shown(expected));
    }
  }

  /** A value as a difference shows it: a long one cut, with its length. */
  static String shown(Object value) {
    String text = String.valueOf(value);
    return text.length() <= SHOWN_CHARACTERS
        ? text
        : text.substring(0, SHOWN_CHARACTERS) + "... (" + text.length() + " characters)";
  }

  private void verifyAccount(Account account) throws SQLException, IOException {
    String name = options.targetName().apply(account.name());
    RestoredAccount target = targets.get(account.id());
    if (target == null) {
      differ("account " + name + " is missing");
      return;
    }
    Account held = target.account();
    Account kept = store.expected(account);
    if (fidelity.contains(Fidelity.ACCOUNT_SETTINGS)) {
      check(name, "domain", kept.domain(), held.domain());
      check(name, "class of service", kept.cos(), held.cos());
      check(name, "status", kept.status(), held.status());
      check(name, "system flag", kept.system(), held.system());
      check(name, "attributes", kept.attributes(), held.attributes());
    }
    if (options.checkAliases() && fidelity.contains(Fidelity.ALIASES)) {
      check(name, "aliases", new TreeSet<>(kept.aliases()), new TreeSet<>(held.aliases()));
    }
    if (!store.holdsMailboxes()) {
      return;
    }
    if (target.ref().key() == 0) {
      differ("account " + name + " has no mailbox");
      return;
    }
    IdSpace space = spaces.get(account.id());
    if (space == null) {
      differ("account " + name + ": nothing of it was restored from this source");
      return;
    }
    MappedIds mapped = new MappedIds();
    FolderCheck folders = new FolderCheck(this, account, name, target, space, mapped);
    Map<Integer, Integer> folderMap = folders.run();
    Set<String> implicitTags =
        new ContentCheck(this, account, name, target, space, folderMap, mapped).run();
    if (fidelity.contains(Fidelity.GRANTS)) {
      new GrantCheck(this, account, name, target, folderMap).run();
    }
    long expected = mapped.distinct() + implicitTags.size();
    long actual = store.countItems(target.ref());
    if (actual != expected) {
      differ(
          "account "
              + name
              + " holds "
              + actual
              + " items and tags, the backup accounts for "
              + expected);
    }
  }

  /**
   * The distinct restored ids of one mailbox seen so far: bit sets, one per range of a million ids
   * that has any, so ids far apart (a composed target's parts, decision 0034) cost no more than the
   * ranges they use.
   */
  static final class MappedIds {
    private static final int RANGE_BITS = 20;
    private final Map<Integer, BitSet> ranges = new HashMap<>();

    void add(int id) {
      ranges
          .computeIfAbsent(id >>> RANGE_BITS, k -> new BitSet())
          .set(id & ((1 << RANGE_BITS) - 1));
    }

    long distinct() {
      return ranges.values().stream().mapToLong(BitSet::cardinality).sum();
    }
  }
}
