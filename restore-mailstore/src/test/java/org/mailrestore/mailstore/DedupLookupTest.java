package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.maildir.MaildirSourceKind;
import org.mailrestore.restore.OperationState;
import org.mailrestore.restore.OperationSummary;
import org.mailrestore.restore.RestoreFixture;
import org.mailrestore.restore.RestoreRequest;
import org.mailrestore.restore.coordination.RestoreEngine;
import org.mailrestore.runtime.RestoreRuntime;
import org.mailrestore.source.SourceSpec;
import org.mailrestore.verify.Verifier;

/**
 * A volume that held no blob when its target opened is not asked for digests this process never
 * recorded (decision 0080): dedup still finds every digest this process wrote, a volume that held
 * blobs is asked as before, and a blob another writer recorded meanwhile is copied once more, never
 * lost, until its row shows the other writer.
 */
class DedupLookupTest {

  private static final int MESSAGES = 40;

  @TempDir Path dir;

  /** A tree of one user holding the same {@link #MESSAGES} messages as every other such tree. */
  private SourceSpec tree(String user) throws Exception {
    addUser(dir.resolve("tree-" + user), user);
    return MaildirSourceKind.of(dir.resolve("tree-" + user), "example.org", "maildir");
  }

  private static void addUser(Path tree, String user) throws Exception {
    Path cur = Files.createDirectories(tree.resolve(user).resolve("cur"));
    Files.createDirectories(cur.resolveSibling("new"));
    Files.createDirectories(cur.resolveSibling("tmp"));
    for (int i = 0; i < MESSAGES; i++) {
      Files.writeString(
          cur.resolve(i + ".host:2,S"),
          "Subject: list mail " + i + "\r\n\r\nthe same body " + i + "\r\n",
          StandardCharsets.US_ASCII);
    }
  }

  private static OperationSummary restore(RestoreEngine engine, SourceSpec source)
      throws Exception {
    OperationSummary s =
        engine.run(engine.submit(RestoreRequest.of(source).withClusterSize(10), null));
    assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
    assertThat(s.counts().itemsRestored()).isEqualTo(MESSAGES + 0L);
    return s;
  }

  @Test
  void digestsThisProcessRecordedAreFoundAndAVolumeThatHeldBlobsIsAsked() throws Exception {
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      assertThat(restore(f.engine, tree("alice")).counts().dedupHits()).isZero();
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));

      // The same target: it recorded these digests, asks for them, and copies nothing.
      assertThat(restore(f.engine, tree("bob")).counts().dedupHits()).isEqualTo(MESSAGES);
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);

      // A target opened now, on a volume that holds blobs: it asks for every digest.
      try (RestoreRuntime later = f.runtime(f.database.dataSource(), 60)) {
        later.target(null);
        assertThat(restore(later.engine(), tree("carol")).counts().dedupHits()).isEqualTo(MESSAGES);
      }
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);
      assertThat(f.count("SELECT COUNT(*) FROM volume_blob")).isEqualTo(MESSAGES);
    }
  }

  /** Decision 0082: clusters of accounts restored at once copy a digest new to them once. */
  @Test
  void theSameNewBlobsOfAccountsRestoredAtOnceAreCopiedOnce() throws Exception {
    long once =
        PackedVolumes.bytesOfOneRestore(dir.resolve("volume"), e -> restore(e, tree("alone")));
    Path tree = dir.resolve("tree");
    List<String> users = List.of("alice", "bob", "carol", "dave");
    for (String user : users) {
      addUser(tree, user);
    }
    SourceSpec all = MaildirSourceKind.of(tree, "example.org", "maildir");
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      OperationSummary s =
          f.engine.run(f.engine.submit(RestoreRequest.of(all).withClusterSize(10), null));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      assertThat(s.counts().dedupHits()).isEqualTo(MESSAGES * (users.size() - 1L));
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(once);
      assertThat(f.count("SELECT COUNT(*) FROM volume_blob")).isEqualTo(MESSAGES);
      assertThat(f.verify(all, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  @Test
  void blobsAnotherWriterRecordedAreCopiedOnceMoreUntilItShowsAndNothingIsLost() throws Exception {
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"));
        RestoreRuntime other = f.runtime(f.database.dataSource(), 60)) {
      other.target(null); // opened while the volume is empty, as a second instance's would be
      restore(f.engine, tree("alice"));
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));

      // The other writer never recorded these digests: its first clusters copy them without
      // asking; their rows were there already, so it asks for every digest after them.
      assertThat(restore(other.engine(), tree("bob")).counts().dedupHits())
          .as("a cluster of 10 copied again at least")
          .isLessThanOrEqualTo(MESSAGES - 10);
      long twice = PackedVolumes.bytesUnder(dir.resolve("volume"));
      assertThat(twice).as("a second copy, unreferenced").isGreaterThan(bytes);
      assertThat(f.count("SELECT COUNT(*) FROM volume_blob"))
          .as("the volume keeps its first record of each digest")
          .isEqualTo(MESSAGES);

      // Now it asks for every digest: no third copy.
      assertThat(restore(other.engine(), tree("carol")).counts().dedupHits()).isEqualTo(MESSAGES);
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(twice);

      for (String user : new String[] {"alice", "bob", "carol"}) {
        assertThat(
                f.verify(
                        MaildirSourceKind.of(dir.resolve("tree-" + user), "example.org", "maildir"),
                        Verifier.Options.defaults())
                    .differences())
            .as(user)
            .isEmpty();
      }
    }
  }
}
