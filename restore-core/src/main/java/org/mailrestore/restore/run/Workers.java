package org.mailrestore.restore.run;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import org.mailrestore.restore.Concurrency;

/**
 * How much runs at once for one operation on this instance.
 *
 * @param concurrency the bounds for this operation (the request may lower the engine's)
 * @param transfers content copies in flight, shared by all operations of the engine
 * @param largeTransfers copies of large content in flight (they hold bigger buffers)
 * @param io runs accounts, clusters and copies (virtual threads; the permits bound them)
 */
public record Workers(
    Concurrency concurrency, Semaphore transfers, Semaphore largeTransfers, ExecutorService io) {}
