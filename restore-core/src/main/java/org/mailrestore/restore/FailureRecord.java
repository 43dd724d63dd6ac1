package org.mailrestore.restore;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A failure (or, with severity warning, a repair) recorded for an operation. */
public record FailureRecord(
    long id,
    String sourceAccountId,
    int itemId,
    String phase,
    String severity,
    String reason,
    String location,
    String detail,
    @Nullable Instant recordedAt) {}
