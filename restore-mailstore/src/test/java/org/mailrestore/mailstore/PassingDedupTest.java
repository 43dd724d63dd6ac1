package org.mailrestore.mailstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
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
import org.mailrestore.zimbra.ArchiveBuilder;
import org.mailrestore.zimbra.ZimbraTgzKind;

/**
 * Content that passes (an archive's or an mbox's messages) is deduplicated as a backup's blobs are
 * (decision 0081): the same list mail in many archives is stored once, whether the target knows the
 * digests it recorded (a volume new to it) or asks the volume for every one; and content held for
 * the lookup is still checked against the digest its archive declares.
 */
class PassingDedupTest {

  private static final int MESSAGES = 40;

  @TempDir Path dir;

  private static byte[] listMail(int i) {
    return ArchiveBuilder.mail("list mail " + i, "the same body for every subscriber " + i);
  }

  /** A directory holding one archive, the user's, with the same list mail as every other. */
  private SourceSpec archive(String user) throws Exception {
    Path archives = dir.resolve("archives-" + user);
    writeArchive(archives, user);
    return ZimbraTgzKind.local(archives);
  }

  private static void writeArchive(Path archives, String user) throws Exception {
    ArchiveBuilder b = new ArchiveBuilder().folder(257, "/Lists");
    for (int i = 0; i < MESSAGES; i++) {
      b.message(300 + i, "/Lists", listMail(i), "", null);
    }
    b.write(archives.resolve(user + "@example.org.tgz"));
  }

  private static OperationSummary restore(RestoreEngine engine, SourceSpec source)
      throws Exception {
    OperationSummary s =
        engine.run(engine.submit(RestoreRequest.of(source).withClusterSize(10), null));
    assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
    assertThat(s.counts().itemsRestored())
        .as("the messages and their folder")
        .isEqualTo(MESSAGES + 1L);
    return s;
  }

  @Test
  void listMailInManyArchivesIsStoredOnce() throws Exception {
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      assertThat(restore(f.engine, archive("alice")).counts().dedupHits()).isZero();
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));

      // The same target knows what it recorded: the passing content is held, asked, not written.
      assertThat(restore(f.engine, archive("bob")).counts().dedupHits()).isEqualTo(MESSAGES);
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);

      // A target opened on a volume that holds blobs asks for every digest.
      try (RestoreRuntime later = f.runtime(f.database.dataSource(), 60)) {
        later.target(null);
        assertThat(restore(later.engine(), archive("carol")).counts().dedupHits())
            .isEqualTo(MESSAGES);
      }
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);
      assertThat(f.count("SELECT COUNT(*) FROM volume_blob")).isEqualTo(MESSAGES);
      for (String user : List.of("alice", "bob", "carol")) {
        assertThat(
                f.verify(
                        ZimbraTgzKind.local(dir.resolve("archives-" + user)),
                        Verifier.Options.defaults())
                    .differences())
            .as(user)
            .isEmpty();
      }
    }
  }

  @Test
  void listMailInArchivesRestoredAtOnceIsWrittenOnce() throws Exception {
    long once =
        PackedVolumes.bytesOfOneRestore(dir.resolve("volume"), e -> restore(e, archive("alone")));
    Path archives = dir.resolve("archives");
    List<String> users = List.of("alice", "bob", "carol", "dave");
    for (String user : users) {
      writeArchive(archives, user);
    }
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      OperationSummary s =
          f.engine.run(
              f.engine.submit(
                  RestoreRequest.of(ZimbraTgzKind.local(archives)).withClusterSize(10), null));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.COMPLETED);
      // Clusters of different accounts meet the same new digests at the same moment: one writes,
      // the others wait for its write and take its blob.
      assertThat(s.counts().dedupHits()).isEqualTo(MESSAGES * (users.size() - 1L));
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(once);
      assertThat(f.count("SELECT COUNT(*) FROM volume_blob")).isEqualTo(MESSAGES);
      assertThat(f.verify(ZimbraTgzKind.local(archives), Verifier.Options.defaults()).differences())
          .isEmpty();
    }
  }

  @Test
  void messagesOfAnMboxWithoutDigestsAreFoundByTheDigestComputedAsTheyPass() throws Exception {
    byte[][] parts = new byte[MESSAGES][];
    for (int i = 0; i < MESSAGES; i++) {
      parts[i] = MboxWriter.mboxrd(listMail(i), "From - Mon May 14 23:39:00 2001");
    }
    Path mbox = Files.createDirectories(dir.resolve("mail")).resolve("Lists");
    Files.write(mbox, MboxWriter.concat(parts));
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      restore(f.engine, MboxSourceKind.of(dir.resolve("mail"), "alice@example.org", "mboxrd", ""));
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));
      SourceSpec bob = MboxSourceKind.of(dir.resolve("mail"), "bob@example.org", "mboxrd", "");
      assertThat(restore(f.engine, bob).counts().dedupHits()).isEqualTo(MESSAGES);
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);
      assertThat(f.verify(bob, Verifier.Options.defaults()).differences()).isEmpty();
    }
  }

  /**
   * Content the room cannot hold (32 MiB over every account, or more than 8 MiB alone) is asked for
   * alone before it is written: a volume that held blobs at open is asked for every digest, and
   * large list mail is stored once too.
   */
  @Test
  void largeMessagesBeyondTheRoomAreAskedForAlone() throws Exception {
    int large = 24; // 36 MiB: more than the room
    byte[][] parts = new byte[large + 1][];
    for (int i = 0; i <= large; i++) {
      int bytes = i == large ? 9 << 20 : 3 << 19; // the last one is spooled, not held
      StringBuilder m = new StringBuilder("Subject: attachment " + i + "\n\n");
      String line = ("line of message " + i + " ").repeat(4) + "\n";
      while (m.length() < bytes) {
        m.append(line);
      }
      parts[i] =
          MboxWriter.mboxrd(
              m.toString().getBytes(StandardCharsets.US_ASCII), "From - Mon May 14 23:39:00 2001");
    }
    Path mbox = Files.createDirectories(dir.resolve("mail")).resolve("Attachments");
    Files.write(mbox, MboxWriter.concat(parts));
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      OperationSummary first =
          f.restore(
              RestoreRequest.of(
                  MboxSourceKind.of(dir.resolve("mail"), "alice@example.org", "mboxrd", "")));
      assertThat(first.state()).as(first.message()).isEqualTo(OperationState.COMPLETED);
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));
      try (RestoreRuntime later = f.runtime(f.database.dataSource(), 60)) {
        later.target(null); // every digest is a "maybe"
        SourceSpec bob = MboxSourceKind.of(dir.resolve("mail"), "bob@example.org", "mboxrd", "");
        OperationSummary again =
            later.engine().run(later.engine().submit(RestoreRequest.of(bob), null));
        assertThat(again.state()).as(again.message()).isEqualTo(OperationState.COMPLETED);
        assertThat(again.counts().dedupHits()).isEqualTo(large + 1L);
        assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);
        assertThat(f.verify(bob, Verifier.Options.defaults()).differences()).isEmpty();
      }
    }
  }

  @Test
  void heldContentThatIsNotWhatItsArchiveDeclaresFailsAloneAndIsNotStored() throws Exception {
    try (RestoreFixture f = PackedVolumes.fixture(dir.resolve("volume"))) {
      restore(f.engine, archive("alice"));
      long bytes = PackedVolumes.bytesUnder(dir.resolve("volume"));

      // Bob's archive declares list mail 0's digest for other bytes: that digest is known, so
      // the content is held for the lookup, and read through to its end to be checked first.
      byte[] other =
          "Subject: not list mail 0\r\n\r\nsomething else\r\n".getBytes(StandardCharsets.UTF_8);
      ArchiveBuilder b =
          new ArchiveBuilder()
              .folder(257, "/Lists")
              .message(299, "/Lists", other, BlobDigest.ofContent(listMail(0)), "", null);
      for (int i = 0; i < MESSAGES; i++) {
        b.message(300 + i, "/Lists", listMail(i), "", null);
      }
      Path archives = dir.resolve("archives-bob");
      b.write(archives.resolve("bob@example.org.tgz"));

      OperationSummary s =
          f.engine.run(
              f.engine.submit(
                  RestoreRequest.of(ZimbraTgzKind.local(archives)).withClusterSize(10), null));
      assertThat(s.state()).as(s.message()).isEqualTo(OperationState.PARTIAL);
      assertThat(s.counts().itemsRestored()).isEqualTo(MESSAGES + 1L);
      assertThat(s.counts().itemsFailed()).isEqualTo(1);
      assertThat(s.counts().dedupHits()).isEqualTo(MESSAGES);
      List<FailureRecord> failures = f.engine.bookkeeping().failures().list(s.id(), 0, 10);
      assertThat(failures).hasSize(1);
      assertThat(failures.get(0).reason()).isEqualTo("DIGEST_MISMATCH");
      assertThat(failures.get(0).location()).contains("0000000299");
      assertThat(PackedVolumes.bytesUnder(dir.resolve("volume"))).isEqualTo(bytes);
    }
  }
}
