package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.PathFence;
import org.mailrestore.mbox.MboxSourceKind;
import org.mailrestore.mbox.MboxWriter;
import org.mailrestore.restore.FailureRecord;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;

/**
 * Content that passes (an mbox's messages) is written behind its reader (decision 0079): a write
 * the volume refuses fails its message alone, with the reason, and a re-run brings it back once.
 */
class PassingContentTest {

  @TempDir Path dir;

  /**
   * An mbox of {@code count} small messages, as {@code mail/Inbox}; the digests of its messages.
   */
  private List<BlobDigest> mbox(int count) throws Exception {
    byte[][] parts = new byte[count][];
    List<BlobDigest> digests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] message =
          ("Subject: message " + i + "\n\nbody " + i + "\n").getBytes(StandardCharsets.UTF_8);
      digests.add(BlobDigest.ofContent(message));
      parts[i] = MboxWriter.mboxrd(message, "From - Mon May 14 23:39:00 2001");
    }
    Path mbox = dir.resolve("mail").resolve("Inbox");
    Files.createDirectories(mbox.getParent());
    Files.write(mbox, MboxWriter.concat(parts));
    return digests;
  }

  private static RestoreFixture fixture(VolumeSpec volume) throws Exception {
    return new RestoreFixture(
        MailstoreKind.of(volume), false, RestoreEngine.DEFAULT_LEASE_SECONDS, PathFence.NONE);
  }

  private SourceSpec source() {
    return MboxSourceKind.of(dir.resolve("mail"), "alice@example.org", "mboxrd", "tags");
  }

  @Test
  void aMessageTheVolumeRefusesFailsAloneAndARerunBringsItBack() throws Exception {
    Path volume = Files.createDirectories(dir.resolve("volume"));
    try (RestoreFixture f = fixture(VolumeSpec.local("default", volume.toString()))) {
      refusedWritesFailAloneAndARerunBringsThemBack(f, f.engine);
    }
  }

  /**
   * The same, where the volume held a blob when its target opened: every message is held for its
   * cluster's lookup (decision 0081) and written after it, and a refusal fails it the same way.
   */
  @Test
  void aHeldMessageTheVolumeRefusesFailsAloneAndARerunBringsItBack() throws Exception {
    Path volume = Files.createDirectories(dir.resolve("volume"));
    Path seed = Files.createDirectories(dir.resolve("seed"));
    Files.write(
        seed.resolve("Inbox"),
        MboxWriter.mboxrd(
            "Subject: seed\n\nseed\n".getBytes(StandardCharsets.UTF_8),
            "From - Mon May 14 23:39:00 2001"));
    try (RestoreFixture f = fixture(VolumeSpec.local("default", volume.toString()))) {
      OperationSummary seeded =
          f.restore(RestoreRequest.of(MboxSourceKind.of(seed, "bob@example.org", "mboxrd", "")));
      assertThat(seeded.state()).as(seeded.message()).isEqualTo(OperationState.COMPLETED);
      try (RestoreRuntime later = f.runtime(f.database.dataSource(), 60)) {
        later.target(null); // opened now: the volume holds a blob, every digest is a "maybe"
        refusedWritesFailAloneAndARerunBringsThemBack(f, later.engine());
      }
    }
  }

  private void refusedWritesFailAloneAndARerunBringsThemBack(RestoreFixture f, RestoreEngine engine)
      throws Exception {
    int count = 300;
    List<BlobDigest> digests = mbox(count);
    // A file where the volume's directory for one shard goes: each write there fails, for real.
    Path volume = dir.resolve("volume");
    String blocked = null;
    for (int i = 17; blocked == null; i++) {
      if (!Files.exists(volume.resolve(digests.get(i).shard()))) {
        blocked = digests.get(i).shard();
      }
    }
    Files.writeString(volume.resolve(blocked), "in the way");
    Set<Integer> refused = new HashSet<>();
    for (int i = 0; i < count; i++) {
      if (digests.get(i).shard().equals(blocked)) {
        refused.add(i);
      }
    }
    String messages = "SELECT COUNT(*) FROM mail_item WHERE type = 5";
    long before = f.count(messages);
    SourceSpec source = source();
    OperationSummary first =
        engine.run(engine.submit(RestoreRequest.of(source).withClusterSize(50), null));
    assertThat(first.state()).as(first.message()).isEqualTo(OperationState.PARTIAL);
    assertThat(first.counts().itemsFailed()).isEqualTo(refused.size());
    assertThat(f.count(messages))
        .as("every other message restored")
        .isEqualTo(before + count - refused.size());
    List<FailureRecord> failures = f.engine.bookkeeping().failures().list(first.id(), 0, 100);
    assertThat(failures).hasSize(refused.size());
    String inTheWay = volume.resolve(blocked) + ": a file of that name is in the way";
    assertThat(failures)
        .allSatisfy(r -> {
          assertThat(r.reason()).isEqualTo("BLOB_IO");
          assertThat(r.location()).contains("Inbox");
          assertThat(r.detail()).contains("not written to the volume").contains(inTheWay);
        });

    Files.delete(volume.resolve(blocked));
    OperationSummary again =
        engine.run(engine.submit(RestoreRequest.of(source).withClusterSize(50), null));
    assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
    assertThat(again.counts().itemsRestored()).isEqualTo(refused.size());
    assertThat(f.count(messages)).as("each message once").isEqualTo(before + count);
    assertThat(f.verify(source, Verifier.Options.defaults()).differences()).isEmpty();
  }

  /**
   * A re-run reads the mbox again, and the content of the messages it restored before passes again:
   * it is not written again (a packed volume would keep a copy nothing refers to).
   */
  @Test
  void aRerunWritesNothingOfWhatItRestoredBefore() throws Exception {
    mbox(200);
    Path volume = dir.resolve("volume");
    try (RestoreFixture f = PackedVolumes.fixture(volume)) {
      OperationSummary first = f.restore(RestoreRequest.of(source()).withClusterSize(50));
      assertThat(first.state()).as(first.message()).isEqualTo(OperationState.COMPLETED);
      long bytes = PackedVolumes.bytesUnder(volume);
      assertThat(bytes).isPositive();

      OperationSummary again = f.restore(RestoreRequest.of(source()).withClusterSize(50));
      assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(again.counts().itemsSkipped()).isEqualTo(200);
      assertThat(again.counts().itemsRestored()).isZero();
      assertThat(PackedVolumes.bytesUnder(volume))
          .as("the volume holds what it held")
          .isEqualTo(bytes);
      assertThat(f.verify(source(), Verifier.Options.defaults()).differences()).isEmpty();
    }
  }
}
