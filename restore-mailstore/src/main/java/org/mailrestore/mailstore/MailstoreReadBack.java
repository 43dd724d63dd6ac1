package org.mailrestore.mailstore;

import java.sql.SQLException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.GranteeType;
import org.mailrestore.mail.Json;
import org.mailrestore.mail.Revision;
import org.mailrestore.mailstore.MailstoreReader.StoredAccount;
import org.mailrestore.source.MailSource;

/** The mailstore read back: keyed, batched queries only. It keeps everything it is given. */
final class MailstoreReadBack implements RestoredStore {

  private final DataSource dataSource;
  private final MailstoreReader reader;
  private final StoredItems items;
  private final Map<Integer, BlobVolume> volumes;

  MailstoreReadBack(DataSource dataSource, Map<Integer, BlobVolume> volumes) {
    this.dataSource = dataSource;
    this.reader = new MailstoreReader(dataSource);
    this.volumes = volumes;
    this.items = new StoredItems(new VolumeStore(dataSource), volumes);
  }

  @Override
  public Set<Fidelity> fidelity() {
    return EnumSet.allOf(Fidelity.class);
  }

  @Override
  public Optional<RestoredAccount> account(String name) throws SQLException {
    return reader.account(name).map(MailstoreReadBack::restored);
  }

  static RestoredAccount restored(StoredAccount a) {
    return new RestoredAccount(
        new ProvisionedAccount(
            a.mailboxId() == null ? 0 : a.mailboxId(), a.uuid(), a.name(), false),
        new Account(
            a.uuid(),
            a.name(),
            a.domain(),
            a.cos(),
            a.status(),
            a.system(),
            a.aliases(),
            Json.toMap(a.attributesJson())));
  }

  @Override
  public Map<Integer, RestoredItem> items(ProvisionedAccount account, Collection<Integer> ids)
      throws SQLException {
    Map<Integer, RestoredItem> found = new HashMap<>();
    for (RestoredItem item :
        items.restored(List.copyOf(reader.items(account.key(), ids).values()))) {
      found.put(item.item().id(), item);
    }
    return found;
  }

  @Override
  public long countItems(ProvisionedAccount account) throws SQLException {
    return reader.countUserItems(account.key());
  }

  @Override
  public Map<Integer, String> tags(ProvisionedAccount account) throws SQLException {
    return reader.tagNames(account.key());
  }

  @Override
  public List<Grant> grants(ProvisionedAccount account) throws SQLException {
    return reader.grants(account.key()).stream()
        .map(g ->
            new Grant(
                g.folderId(),
                GranteeType.fromWireName(g.granteeType()),
                g.granteeId(),
                g.granteeName(),
                g.rights()))
        .toList();
  }

  @Override
  public Map<Integer, Revision.MountTarget> mounts(ProvisionedAccount account) throws SQLException {
    Map<Integer, Revision.MountTarget> mounts = new HashMap<>();
    reader
        .mounts(account.key())
        .forEach(
            (id, m) -> mounts.put(id, new Revision.MountTarget(m.ownerUuid(), m.remoteFolderId())));
    return mounts;
  }

  @Override
  public MailSource asSource() {
    return new MailstoreSource(dataSource, reader, volumes);
  }
}
