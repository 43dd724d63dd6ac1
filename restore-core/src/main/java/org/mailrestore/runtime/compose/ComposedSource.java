package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.ClassOfService;
import org.mailrestore.mail.DistributionList;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.LookAheadItemStream;
import org.mailrestore.source.MailSource;

/**
 * Composed targets read as one source, for export: the first part's accounts and provisioning; each
 * account's folder-like items from every part, then the first part's tags, then every part's
 * content, all with composed ids; content by digest from whichever part holds it.
 */
final class ComposedSource implements MailSource {

  private final ComposedTarget target;
  private final List<MailSource> sources;
  private final Map<Integer, Map<String, String>> idsByName = new HashMap<>();

  ComposedSource(ComposedTarget target, List<MailSource> sources) {
    this.target = target;
    this.sources = sources;
  }

  private MailSource first() {
    return sources.get(0);
  }

  @Override
  public String describe() {
    return target.describe();
  }

  @Override
  public String identity() throws IOException {
    List<String> parts = new ArrayList<>();
    for (MailSource source : sources) {
      parts.add(source.identity());
    }
    return String.join(" + ", parts);
  }

  @Override
  public String accountRef(String accountId) {
    return first().accountRef(accountId);
  }

  @Override
  public List<Parsed<Domain>> domains() {
    return first().domains();
  }

  @Override
  public List<Parsed<ClassOfService>> classesOfService() {
    return first().classesOfService();
  }

  @Override
  public List<Parsed<DistributionList>> distributionLists() {
    return first().distributionLists();
  }

  @Override
  public List<String> accountIds() {
    return first().accountIds();
  }

  @Override
  public Parsed<Account> account(String accountId) {
    return first().account(accountId);
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return first().grants(accountId);
  }

  /** The id a part's source gives the first part's account, by its address; null if none. */
  private synchronized @Nullable String idIn(int part, String accountId) {
    if (part == 0) {
      return accountId;
    }
    if (!(first().account(accountId) instanceof Parsed.Ok<Account>(Account account, String at))) {
      return null;
    }
    Map<String, String> byName =
        idsByName.computeIfAbsent(
            part,
            p -> {
              Map<String, String> names = new HashMap<>();
              MailSource source = sources.get(p);
              for (String id : source.accountIds()) {
                if (source.account(id) instanceof Parsed.Ok<Account>(Account a, String where)) {
                  names.put(a.name(), id);
                }
              }
              return names;
            });
    return byName.get(account.name());
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    Set<ItemType> containers = EnumSet.noneOf(ItemType.class);
    Set<ItemType> contents = EnumSet.noneOf(ItemType.class);
    for (ItemType t : types) {
      (t.isContainer() ? containers : contents).add(t);
    }
    Deque<Pass> passes = new ArrayDeque<>();
    for (boolean containerPass : new boolean[] {true, false}) {
      for (int part = 0; part < sources.size(); part++) {
        Set<ItemType> wanted = EnumSet.noneOf(ItemType.class);
        wanted.addAll(containerPass ? containers : contents);
        if (part != 0) {
          wanted.remove(ItemType.TAG); // every part keeps the tags; the first part's are read
        }
        wanted.retainAll(containerPass ? ItemType.containers() : target.part(part).contentTypes());
        String id = idIn(part, accountId);
        if (!wanted.isEmpty() && id != null && !target.part(part).contentTypes().isEmpty()) {
          passes.add(new Pass(part, id, wanted));
        }
      }
    }
    return new Chained(passes);
  }

  /** One part's items of some types. */
  private record Pass(int part, String accountId, Set<ItemType> types) {}

  /** The passes' streams one after another, their ids composed. */
  private final class Chained extends LookAheadItemStream {
    private final Deque<Pass> passes;
    private @Nullable ItemStream current;
    private int part;

    Chained(Deque<Pass> passes) {
      this.passes = passes;
    }

    @Override
    protected @Nullable ItemEntry advance() {
      while (true) {
        if (current != null && current.hasNext()) {
          ItemEntry entry = current.next();
          if (!(entry instanceof ItemEntry.Decoded d)) {
            return entry;
          }
          if (part != 0 && PartIds.isShared(d.item().id())) {
            continue; // system folders are every part's; the first part's are read
          }
          return new ItemEntry.Decoded(
              ComposedReadBack.composed(part, d.item()), d.location(), d.passing());
        }
        if (current != null) {
          current.close();
          current = null;
        }
        Pass pass = passes.poll();
        if (pass == null) {
          return null;
        }
        part = pass.part();
        try {
          current = sources.get(part).items(pass.accountId(), pass.types());
        } catch (IOException e) {
          return new ItemEntry.Undecodable(
              0, null, target.part(part).describe(), e.getMessage(), false);
        }
      }
    }

    @Override
    public void close() {
      if (current != null) {
        current.close();
      }
    }
  }

  @Override
  public BlobSource blobs() {
    return new BlobSource() {
      @Override
      public InputStream open(BlobDigest digest) throws IOException {
        BlobException missing = null;
        for (MailSource source : sources) {
          try {
            return source.blobs().open(digest);
          } catch (BlobException e) {
            if (e.reason() != BlobException.Reason.MISSING) {
              throw e;
            }
            missing = e;
          }
        }
        throw missing != null
            ? missing
            : new BlobException(BlobException.Reason.MISSING, "no content " + digest);
      }

      @Override
      public String describe(BlobDigest digest) {
        return "content " + digest + " of " + target.describe();
      }
    };
  }

  @Override
  public void doneWith(String accountId) {
    for (int part = 0; part < sources.size(); part++) {
      String id = idIn(part, accountId);
      if (id != null) {
        sources.get(part).doneWith(id);
      }
    }
  }

  @Override
  public void close() throws IOException {
    IOException failed = null;
    for (MailSource source : sources) {
      try {
        source.close();
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
