package org.mailrestore.verify;

import java.util.List;

/**
 * What {@link Verifier} found.
 *
 * @param differences the first differences found, each a sentence naming the account and item
 * @param differenceCount all differences, including those not listed
 * @param excused differences on items the restore reported as failed (expected, not counted)
 */
public record VerifyReport(
    int accounts,
    long items,
    long blobsChecked,
    long differenceCount,
    long excused,
    List<String> differences) {

  public boolean identical() {
    return differenceCount == 0;
  }
}
