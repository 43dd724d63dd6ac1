package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;

/**
 * What a volume holds as far as this process recorded it: a "no" only for digests never recorded,
 * and none once another writer showed itself.
 */
class RecordedDigestsTest {

  private static BlobDigest digest(int n) {
    return BlobDigest.ofContent(("blob " + n).getBytes(StandardCharsets.UTF_8));
  }

  private static StoredBlob stored(BlobDigest d) {
    return new StoredBlob(d, "pack:1:0:10", 10, 10);
  }

  private static List<StoredBlob> blobs(int from, int to) {
    List<StoredBlob> list = new ArrayList<>();
    for (int i = from; i < to; i++) {
      list.add(stored(digest(i)));
    }
    return list;
  }

  @Test
  void aDigestRecordedIsAMaybeAndOneNeverRecordedIsANo() {
    RecordedDigests recorded = RecordedDigests.empty("test");
    for (int from = 0; from < 100_000; from += 1000) {
      recorded.recording(blobs(from, from + 1000)).recorded(1000);
    }
    assertThat(recorded.tracking()).isTrue();
    assertThat(recorded.size()).isEqualTo(100_000);
    for (int i = 0; i < 100_000; i++) {
      assertThat(recorded.mightHold(digest(i))).as("recorded %d", i).isTrue();
    }
    int maybes = 0;
    for (int i = 100_000; i < 200_000; i++) {
      if (recorded.mightHold(digest(i))) {
        maybes++; // asked of the database
      }
    }
    assertThat(maybes).as("false maybes: the filter's six bits set by others").isLessThan(20);
  }

  @Test
  void aVolumeThatHeldBlobsAtOpenIsAlwaysAMaybe() {
    RecordedDigests recorded = RecordedDigests.unknown();
    recorded.recording(blobs(0, 10)).recorded(10);
    assertThat(recorded.mightHold(digest(20))).isTrue();
    assertThat(recorded.tracking()).isFalse();
  }

  @Test
  void rowsAnotherClusterOfThisProcessRecordedMeanwhileKeepTheNo() {
    RecordedDigests recorded = RecordedDigests.empty("test");
    recorded.recording(blobs(0, 10)).recorded(10);
    // Two clusters copied blobs 5 to 14 at once; the other recorded 5 to 9 first. The same
    // content staged twice in one cluster is one row too.
    List<StoredBlob> batch = blobs(5, 15);
    batch.add(stored(digest(12)));
    recorded.recording(batch).recorded(5);
    assertThat(recorded.tracking()).isTrue();
    assertThat(recorded.mightHold(digest(14))).isTrue();
    assertThat(recorded.mightHold(digest(15))).isFalse();
  }

  /**
   * Two clusters recording the same blobs: the first one's rows are in, but its answer comes after
   * the second's, which found them there. Its batch was pending: the second's rows are explained.
   */
  @Test
  void rowsABatchStillBeingRecordedPutThereKeepTheNo() {
    RecordedDigests recorded = RecordedDigests.empty("test");
    RecordedDigests.Recording first = recorded.recording(blobs(0, 10));
    RecordedDigests.Recording second = recorded.recording(blobs(5, 15));
    second.recorded(5);
    first.recorded(10);
    assertThat(recorded.tracking()).isTrue();
    for (int i = 0; i < 15; i++) {
      assertThat(recorded.mightHold(digest(i))).isTrue();
    }
    assertThat(recorded.mightHold(digest(15))).isFalse();

    // A batch whose statement failed explains nothing: it put no row there.
    RecordedDigests.Recording failed = recorded.recording(blobs(20, 30));
    failed.failed();
    recorded.recording(blobs(20, 30)).recorded(0);
    assertThat(recorded.tracking()).isFalse();
  }

  @Test
  void rowsNoClusterOfThisProcessRecordedEndTheNo() {
    RecordedDigests recorded = RecordedDigests.empty("test");
    recorded.recording(blobs(0, 10)).recorded(10);
    recorded.recording(blobs(10, 20)).recorded(9); // one was there: another writer's
    assertThat(recorded.tracking()).isFalse();
    assertThat(recorded.mightHold(digest(1000))).isTrue();

    RecordedDigests unknownCount = RecordedDigests.empty("test");
    unknownCount.recording(blobs(0, 10)).recorded(-1); // the driver did not say
    assertThat(unknownCount.tracking()).isFalse();
  }

  @Test
  void pastItsBoundEveryDigestIsAMaybe() {
    RecordedDigests recorded = RecordedDigests.empty("test", 1500);
    recorded.recording(blobs(0, 1000)).recorded(1000);
    assertThat(recorded.tracking()).isTrue();
    recorded.recording(blobs(1000, 2000)).recorded(1000);
    assertThat(recorded.tracking()).isFalse();
    assertThat(recorded.mightHold(digest(5000))).isTrue();
  }
}
