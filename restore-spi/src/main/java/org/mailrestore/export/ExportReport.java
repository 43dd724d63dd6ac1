package org.mailrestore.export;

import java.util.List;

/**
 * What an export wrote.
 *
 * @param skippedItems items the format cannot hold (contacts, appointments... in a Maildir)
 * @param problems items or folders that could not be written as they are, with the reason
 */
public record ExportReport(
    List<String> accounts,
    long folders,
    long items,
    long bytes,
    long skippedItems,
    List<String> problems) {}
