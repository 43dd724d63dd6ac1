package org.mailrestore.runtime.compose;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.ItemType;

/**
 * Several targets as one, for an operation that writes each kind of item where it is carried
 * (messages to an IMAP server, contacts and calendars to a DAV server, accounts to a directory).
 * The engine sees one target: one journal per cluster, one id map, one report, one resume (decision
 * 0034). Every part is provisioned; each item and folder goes to the part {@link Routing} chooses;
 * ids carry their part ({@link PartIds}).
 */
public final class ComposedTarget implements MailTarget {

  private final List<MailTarget> parts;
  private final List<MailTarget> provisioningOrder;
  private final Routing routing;
  private final int committing;

  /**
   * @param given the parts, in the order given: provisioning follows it, directories (parts that
   *     hold no content) first, so a server that reads one finds the account there
   * @throws IllegalArgumentException when more than one part commits with the bookkeeping, or there
   *     are too many parts
   */
  public ComposedTarget(List<MailTarget> given) {
    if (given.size() < 2 || given.size() > PartIds.MAX_PARTS) {
      throw new IllegalArgumentException(
          "a composition takes 2 to " + PartIds.MAX_PARTS + " targets, not " + given.size());
    }
    List<MailTarget> atomic = given.stream().filter(MailTarget::atomicCommits).toList();
    if (atomic.size() > 1) {
      throw new IllegalArgumentException(
          "only one target of a composition may commit with the restore's bookkeeping: "
              + atomic.stream().map(MailTarget::describe).collect(Collectors.joining(", ")));
    }
    this.parts = Routing.ordered(given);
    this.routing = new Routing(parts);
    this.committing = atomic.isEmpty() ? -1 : parts.indexOf(atomic.get(0));
    // A directory (a part without content) is provisioned first: the servers read accounts there.
    List<MailTarget> order = new ArrayList<>(given);
    order.sort(java.util.Comparator.comparing(t -> !t.contentTypes().isEmpty()));
    this.provisioningOrder = List.copyOf(order);
  }

  MailTarget part(int index) {
    return parts.get(index);
  }

  int size() {
    return parts.size();
  }

  /**
   * The part that holds a folder (by its composed id): the part its id names, or for a system
   * folder (the same id in every part) the part its view routes it to. Phase 3 writes a grant
   * there, and verify asks that part how it keeps the grant.
   */
  int partOfFolder(int folder) {
    if (!PartIds.isShared(folder)) {
      return PartIds.part(folder);
    }
    org.mailrestore.mail.SystemFolder system = org.mailrestore.mail.SystemFolder.byId(folder);
    return system == null ? 0 : routing().systemFolderPart(system);
  }

  Routing routing() {
    return routing;
  }

  /** Whether this part commits the cluster's journal in its own transaction. */
  boolean commitsWithBookkeeping(int part) {
    return part == committing;
  }

  boolean hasCommittingPart() {
    return committing >= 0;
  }

  /** The parts in the order they are provisioned (as given), with their index here. */
  List<Integer> provisioningOrder() {
    List<Integer> order = new ArrayList<>();
    for (MailTarget t : provisioningOrder) {
      order.add(parts.indexOf(t));
    }
    return order;
  }

  @Override
  public String describe() {
    return parts.stream().map(MailTarget::describe).collect(Collectors.joining(" + "));
  }

  /** Never: the parts that do not commit with the bookkeeping write before its journal commits. */
  @Override
  public boolean atomicCommits() {
    return false;
  }

  @Override
  public Set<ItemType> contentTypes() {
    Set<ItemType> types = EnumSet.noneOf(ItemType.class);
    parts.forEach(p -> types.addAll(p.contentTypes()));
    return types;
  }

  @Override
  public TargetProvisioning provisioning() {
    return new ComposedProvisioning(this);
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context)
      throws SQLException, IOException {
    List<MailboxWriter> writers = new ArrayList<>();
    try {
      for (int i = 0; i < parts.size(); i++) {
        MailTarget part = parts.get(i);
        writers.add(
            part.contentTypes().isEmpty() ? null : part.mailbox(account(i, account), context));
      }
    } catch (SQLException | IOException | RuntimeException e) {
      writers.stream().filter(w -> w != null).forEach(MailboxWriter::close);
      throw e;
    }
    return new ComposedWriter(this, writers);
  }

  /**
   * The account in a part, by its address: the first part's is the composition's own.
   *
   * @throws IOException when the part does not have it (provisioning made it in every part)
   */
  ProvisionedAccount account(int part, ProvisionedAccount composed)
      throws SQLException, IOException {
    if (part == 0) {
      return composed;
    }
    return parts
        .get(part)
        .provisioning()
        .find(composed.name())
        .map(a -> a.withFresh(composed.fresh()))
        .orElseThrow(() ->
            new IOException(
                "the account "
                    + composed.name()
                    + " is not in "
                    + parts.get(part).describe()
                    + "; restore it with provisioning"));
  }

  @Override
  public TargetShares shares() {
    return new ComposedShares(this);
  }

  @Override
  public RestoredStore readBack() throws SQLException, IOException {
    List<RestoredStore> stores = new ArrayList<>();
    for (MailTarget part : parts) {
      stores.add(part.readBack());
    }
    return new ComposedReadBack(this, stores);
  }

  @Override
  public void check() throws IOException {
    for (MailTarget part : parts) {
      part.check();
    }
  }

  /** The parts are shared targets, closed by whoever opened them. */
  @Override
  public void close() {}
}
