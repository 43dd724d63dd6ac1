package org.mailrestore.mailstore;

import org.mailrestore.blob.BlobVolume;

/**
 * The volume a mailbox writer's blobs go to, with its rows and what this process knows of them: the
 * digests it recorded (decision 0080) and the writes it has in flight (decision 0082). One per
 * target, shared by the writers of every account.
 *
 * @param id the volume's id in {@code volume}
 */
record WritableVolume(
    BlobVolume volume,
    int id,
    VolumeStore rows,
    RecordedDigests recorded,
    WritesInFlight flights) {}
