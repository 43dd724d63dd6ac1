package org.mailrestore.restore;

import javax.sql.DataSource;
import org.mailrestore.blob.BlobVolume;

/**
 * Where a restore writes: the mailstore database and the blob volume (registered in it as {@code
 * volumeId}).
 */
public record RestoreTarget(DataSource dataSource, BlobVolume volume, int volumeId) {}
