package org.mailrestore.destination;

import java.util.concurrent.ExecutorService;

/**
 * What the engine lends a target for one account's phase 2.
 *
 * @param content the source's content by digest (content that is not passing), read within the
 *     engine's bound on copies in flight
 * @param io runs copies and other work in parallel (virtual threads; the content's turns bound
 *     them)
 */
public record WriteContext(SourceContent content, ExecutorService io) {}
