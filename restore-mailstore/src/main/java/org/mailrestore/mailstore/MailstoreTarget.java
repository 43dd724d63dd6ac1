package org.mailrestore.mailstore;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.mailrestore.blob.BlobVolume;
import org.mailrestore.destination.MailTarget;
import org.mailrestore.destination.MailboxWriter;
import org.mailrestore.destination.ProvisionedAccount;
import org.mailrestore.destination.RestoredStore;
import org.mailrestore.destination.TargetContext;
import org.mailrestore.destination.TargetProvisioning;
import org.mailrestore.destination.TargetShares;
import org.mailrestore.destination.WriteContext;

/**
 * The mailstore as a restore target: its tables live in the bookkeeping's database, so each
 * cluster's rows and the engine's journal commit in one transaction; its blobs go to one volume,
 * made durable and recorded before any row points at them. Opened without a volume, it can only be
 * read back (for {@code verify} and {@code export}).
 */
public final class MailstoreTarget implements MailTarget {

  private final DataSource dataSource;
  private final Volumes volumes;
  private final VolumeSpec spec;
  private final BlobVolume volume;
  private final int volumeId;
  private final MailstoreProvisioning provisioning;
  private final MailstoreShares shares;
  private final WriteBehind writeBehind;
  private final RecordedDigests recorded;
  private final WritesInFlight flights = new WritesInFlight();
  private MailstoreReadBack readBack;

  private MailstoreTarget(
      DataSource dataSource,
      Volumes volumes,
      VolumeSpec spec,
      BlobVolume volume,
      int volumeId,
      RecordedDigests recorded) {
    this.dataSource = dataSource;
    this.volumes = volumes;
    this.spec = spec;
    this.volume = volume;
    this.volumeId = volumeId;
    this.recorded = recorded;
    this.writeBehind = new WriteBehind(spec == null ? 0 : spec.packedUpTo());
    ProvisioningStore store = new ProvisioningStore(dataSource);
    this.provisioning = new MailstoreProvisioning(store);
    this.shares = new MailstoreShares(store, new SharesStore(dataSource));
  }

  /**
   * Migrates the mailstore's tables in the bookkeeping's database and registers the volume (or
   * finds it registered).
   *
   * @throws IllegalStateException when a volume of that name is registered with another location
   */
  static MailstoreTarget open(VolumeSpec spec, TargetContext context)
      throws SQLException, IOException {
    DataSource dataSource = context.bookkeeping();
    MailstoreSchema.migrate(dataSource);
    Volumes volumes = new Volumes(context.s3(), context.limits(), context.registry());
    if (spec == null) {
      return new MailstoreTarget(dataSource, volumes, null, null, 0, RecordedDigests.unknown());
    }
    volumes.ensureWritable(spec);
    VolumeStore store = new VolumeStore(dataSource);
    int id = store.register(spec.toRow());
    RecordedDigests recorded =
        store.holdsAny(id) ? RecordedDigests.unknown() : RecordedDigests.empty(spec.name());
    return new MailstoreTarget(dataSource, volumes, spec, volumes.open(spec), id, recorded);
  }

  /** The volume blobs are restored to. */
  public BlobVolume volume() {
    return volume;
  }

  public VolumeSpec volumeSpec() {
    return spec;
  }

  @Override
  public String describe() {
    return volume == null ? "mailstore" : "mailstore, " + volume.describe();
  }

  private BlobVolume writableVolume() throws IOException {
    if (volume == null) {
      throw new IOException("restoring into the mailstore needs a volume (--volume)");
    }
    return volume;
  }

  @Override
  public boolean atomicCommits() {
    return true;
  }

  @Override
  public TargetProvisioning provisioning() {
    return provisioning;
  }

  @Override
  public MailboxWriter mailbox(ProvisionedAccount account, WriteContext context)
      throws SQLException, IOException {
    return new MailstoreWriter(
        dataSource, account, writableVolume(), volumeId, context, writeBehind, recorded, flights);
  }

  @Override
  public TargetShares shares() {
    return shares;
  }

  @Override
  public synchronized RestoredStore readBack() throws SQLException, IOException {
    if (readBack == null) {
      Map<Integer, BlobVolume> all = volumes.openAll(dataSource);
      readBack = new MailstoreReadBack(dataSource, all);
    }
    return readBack;
  }

  @Override
  public void check() throws IOException {
    writableVolume().check();
  }

  @Override
  public void close() throws IOException {
    if (volume != null) {
      volume.close();
    }
  }
}
