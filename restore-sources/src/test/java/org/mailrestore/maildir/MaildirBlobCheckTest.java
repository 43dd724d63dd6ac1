package org.mailrestore.maildir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.MeteredBlobSource;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;

/**
 * A Maildir message is hashed once, when its account is read; when it is copied, the source checks
 * that the file is still the one it hashed (decision 0020), also through the blob decorators.
 */
class MaildirBlobCheckTest {

  private static final byte[] FIRST = message("first");
  private static final byte[] SECOND = message("secon"); // same length as "first"

  @TempDir Path dir;

  private static byte[] message(String subject) {
    return ("From: a@example.com\r\nSubject: " + subject + "\r\n\r\nbody\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private Path file;

  private List<Revision> readAlice(MailSource source) throws IOException {
    List<Revision> states = new ArrayList<>();
    try (ItemStream stream =
        source.items(source.accountIds().getFirst(), EnumSet.of(ItemType.MESSAGE))) {
      while (stream.hasNext()) {
        ItemEntry entry = stream.next();
        states.add(((ItemEntry.Decoded) entry).item().latest().orElseThrow());
      }
    }
    return states;
  }

  /** Alice's Maildir in the tree, made empty; its {@code cur/}. */
  private Path aliceCur() throws IOException {
    Files.createDirectories(dir.resolve("tree/alice/new"));
    Files.createDirectories(dir.resolve("tree/alice/tmp"));
    return Files.createDirectories(dir.resolve("tree/alice/cur"));
  }

  private MailSource tree() throws IOException {
    file = aliceCur().resolve("1000.M1P1.host:2,S");
    Files.write(file, FIRST);
    return MaildirSourceContractTest.open(dir.resolve("tree"), "auto");
  }

  private static byte[] readVerified(BlobSource blobs, Revision state) throws IOException {
    try (InputStream in = blobs.openVerified(state.digest(), state.size())) {
      return in.readAllBytes();
    }
  }

  @Test
  void anUnchangedMessageReadsWhole() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      assertThat(readVerified(source.blobs(), state)).isEqualTo(FIRST);
      BlobSource metered =
          new MeteredBlobSource(source.blobs(), new SimpleMeterRegistry(), "maildir");
      assertThat(readVerified(metered, state)).isEqualTo(FIRST);
    }
  }

  /** A re-run finds the messages it restored by these names: they must not change. */
  @Test
  void aMessageIsNamedByTheNameUuidOfItsAccountAndFile() throws IOException {
    try (MailSource source = tree()) {
      String account = source.accountIds().getFirst();
      Revision state = readAlice(source).getFirst();
      String name = "/message:" + dir.resolve("tree/alice").relativize(file);
      assertThat(state.uuid())
          .isEqualTo(
              UUID.nameUUIDFromBytes((account + name).getBytes(StandardCharsets.UTF_8)).toString());
    }
  }

  /**
   * The first copy takes the bytes the reader kept: the bytes hashed, whatever became of the file
   * since; a later copy reads the file.
   */
  private static void firstCopyTakesTheKeptBytes(MailSource source, Revision state)
      throws IOException {
    assertThat(readVerified(source.blobs(), state)).isEqualTo(FIRST);
  }

  @Test
  void keptBytesAreTheBytesHashedWhateverBecameOfTheFile() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      // A live server marks the message read: the file is renamed, its flags in its name.
      Files.move(file, file.resolveSibling("1000.M1P1.host:2,RS"));
      firstCopyTakesTheKeptBytes(source, state);
      assertThatThrownBy(() -> readVerified(source.blobs(), state))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.MISSING))
          .hasMessageContaining("disappeared from the Maildir tree");
    }
  }

  @Test
  void aMessageRewrittenAfterItWasHashedFailsItsCheck() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      firstCopyTakesTheKeptBytes(source, state);
      FileTime hashedAt = Files.getLastModifiedTime(file);
      Files.write(file, SECOND);
      Files.setLastModifiedTime(file, FileTime.fromMillis(hashedAt.toMillis() + 1000));
      BlobSource metered =
          new MeteredBlobSource(source.blobs(), new SimpleMeterRegistry(), "maildir");
      for (BlobSource blobs : List.of(source.blobs(), metered)) {
        assertThatThrownBy(() -> readVerified(blobs, state))
            .isInstanceOfSatisfying(
                BlobException.class,
                e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.DIGEST_MISMATCH))
            .hasMessageContaining(file.toString())
            .hasMessageContaining("changed since it was hashed");
      }
    }
  }

  @Test
  void aMessageThatGrewFailsOnItsSize() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      firstCopyTakesTheKeptBytes(source, state);
      Files.write(file, message("first, and longer"));
      assertThatThrownBy(() -> readVerified(source.blobs(), state))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.SIZE_MISMATCH))
          .hasMessageContaining("was the tree changed?");
    }
  }

  @Test
  void aMessageReplacedByAnotherFileFailsItsCheck() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      firstCopyTakesTheKeptBytes(source, state);
      FileTime hashedAt = Files.getLastModifiedTime(file);
      Path other = file.resolveSibling("other");
      Files.write(other, SECOND);
      Files.setLastModifiedTime(other, hashedAt);
      Files.move(other, file, StandardCopyOption.REPLACE_EXISTING);
      assertThatThrownBy(() -> readVerified(source.blobs(), state))
          .isInstanceOf(BlobException.class)
          .hasMessageContaining("replaced by another file");
    }
  }

  @Test
  void keptBytesStayWithinTheirBudgetTheOldestGivenUpFirst() throws IOException {
    MaildirBlobSource blobs = new MaildirBlobSource();
    int each = MaildirBlobSource.KEPT_UP_TO;
    int count = (int) (MaildirBlobSource.KEPT_BYTES / each) + 10;
    Path real = Files.writeString(dir.resolve("real"), "real");
    BlobDigest copied = BlobDigest.ofContent(Files.readAllBytes(real));
    blobs.register(
        "alice", copied, real, Files.readAttributes(real, BasicFileAttributes.class), null);
    List<BlobDigest> digests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      digests.addAll(registerGoneFiles(blobs, i, 1));
      assertThat(blobs.keptBytes()).isLessThanOrEqualTo(MaildirBlobSource.KEPT_BYTES);
      if (i % 16 == 0) {
        try (InputStream in = blobs.open(copied)) {
          in.readAllBytes(); // copies follow the reader
        }
      }
    }
    assertMissing(blobs, digests.getFirst());
    try (InputStream in = blobs.open(digests.getLast())) {
      assertThat(BlobDigest.ofContent(in.readAllBytes())).isEqualTo(digests.getLast());
    }
    assertThat(blobs.keptBytes()).isEqualTo(MaildirBlobSource.KEPT_BYTES / each * each - each);
  }

  @Test
  void aRunThatCopiesNothingKeepsNothingOnceABudgetPassedUntilACopyStarts() throws IOException {
    MaildirBlobSource blobs = new MaildirBlobSource();
    int budget = (int) (MaildirBlobSource.KEPT_BYTES / MaildirBlobSource.KEPT_UP_TO);
    List<BlobDigest> early = registerGoneFiles(blobs, 0, budget);
    assertThat(blobs.keptBytes()).isEqualTo(MaildirBlobSource.KEPT_BYTES);
    List<BlobDigest> late = registerGoneFiles(blobs, budget, 1);
    assertThat(blobs.keptBytes()).isZero();
    assertMissing(blobs, early.getLast());
    assertMissing(blobs, late.getFirst());
    // A copy started: the next messages are kept again.
    List<BlobDigest> after = registerGoneFiles(blobs, budget + 1, 2);
    assertThat(blobs.keptBytes()).isEqualTo(2L * MaildirBlobSource.KEPT_UP_TO);
    try (InputStream in = blobs.open(after.getFirst())) {
      assertThat(BlobDigest.ofContent(in.readAllBytes())).isEqualTo(after.getFirst());
    }
  }

  /** Registers {@code count} messages whose files do not exist: only kept bytes can be opened. */
  private List<BlobDigest> registerGoneFiles(MaildirBlobSource blobs, int first, int count)
      throws IOException {
    Files.createDirectories(dir);
    Path any = dir.resolve("any");
    if (!Files.exists(any)) {
      Files.writeString(any, "x");
    }
    BasicFileAttributes attrs = Files.readAttributes(any, BasicFileAttributes.class);
    List<BlobDigest> digests = new ArrayList<>();
    for (int i = first; i < first + count; i++) {
      byte[] content = new byte[MaildirBlobSource.KEPT_UP_TO];
      content[0] = (byte) i;
      content[1] = (byte) (i >> 8);
      BlobDigest digest = BlobDigest.ofContent(content);
      digests.add(digest);
      blobs.register("alice", digest, dir.resolve("gone-" + i), attrs, content);
    }
    return digests;
  }

  private static void assertMissing(MaildirBlobSource blobs, BlobDigest digest) {
    assertThatThrownBy(() -> blobs.open(digest))
        .isInstanceOfSatisfying(
            BlobException.class,
            e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.MISSING));
  }

  @Test
  void aMessageIsForgottenWhenNoAccountInProgressHoldsIt() throws IOException {
    MaildirBlobSource blobs = new MaildirBlobSource();
    Path one = Files.write(dir.resolve("one"), FIRST);
    Path copy = Files.write(dir.resolve("copy"), FIRST);
    Path other = Files.write(dir.resolve("other"), SECOND);
    BlobDigest shared = BlobDigest.ofContent(FIRST);
    BlobDigest own = BlobDigest.ofContent(SECOND);
    blobs.register(
        "alice", shared, one, Files.readAttributes(one, BasicFileAttributes.class), null);
    blobs.register(
        "bob", shared, copy, Files.readAttributes(copy, BasicFileAttributes.class), null);
    blobs.register("bob", own, other, Files.readAttributes(other, BasicFileAttributes.class), null);
    assertThat(blobs.registered()).isEqualTo(2);

    blobs.release("alice");
    try (InputStream in = blobs.openVerified(shared, FIRST.length)) {
      assertThat(in.readAllBytes()).isEqualTo(FIRST); // bob still holds it
    }
    blobs.release("bob");
    assertThat(blobs.registered()).isZero();
    assertMissing(blobs, shared);
    assertMissing(blobs, own);
  }

  @Test
  void aRestoreOfTheTreeReleasesEachAccountItRead() throws IOException {
    try (MailSource source = tree()) {
      Revision state = readAlice(source).getFirst();
      source.doneWith(source.accountIds().getFirst());
      assertThatThrownBy(() -> readVerified(source.blobs(), state))
          .isInstanceOfSatisfying(
              BlobException.class,
              e -> assertThat(e.reason()).isEqualTo(BlobException.Reason.MISSING));
      readAlice(source); // read again: registered again
      assertThat(readVerified(source.blobs(), state)).isEqualTo(FIRST);
    }
  }

  /**
   * A message is forgotten as soon as no item in flight names it, so a folder of any size holds
   * only the clusters in flight: the same message twice in one account stays until both items are
   * settled, and another account's item keeps it too.
   */
  @Test
  void aMessageIsForgottenWhenTheLastItemNamingItIsSettled() throws IOException {
    MaildirBlobSource blobs = new MaildirBlobSource();
    Path one = Files.write(dir.resolve("one"), FIRST);
    Path again = Files.write(dir.resolve("again"), FIRST);
    Path copy = Files.write(dir.resolve("copy"), FIRST);
    BlobDigest shared = BlobDigest.ofContent(FIRST);
    blobs.register(
        "alice", shared, one, Files.readAttributes(one, BasicFileAttributes.class), FIRST);
    blobs.register(
        "alice", shared, again, Files.readAttributes(again, BasicFileAttributes.class), null);
    blobs.register(
        "bob", shared, copy, Files.readAttributes(copy, BasicFileAttributes.class), null);

    blobs.settle("alice", List.of(shared));
    assertThat(blobs.registered()).as("alice's second item still names it").isOne();
    blobs.settle("alice", List.of(shared));
    blobs.settle("alice", List.of(shared)); // settled once too often: no effect on bob's
    assertThat(blobs.keptBytes()).as("alice's kept bytes go with her last item").isZero();
    try (InputStream in = blobs.openVerified(shared, FIRST.length)) {
      assertThat(in.readAllBytes()).as("bob's item still names it").isEqualTo(FIRST);
    }
    blobs.settle("bob", List.of(shared));
    assertThat(blobs.registered()).isZero();
    assertMissing(blobs, shared);

    // Read again after it was settled: registered again.
    blobs.register(
        "bob", shared, copy, Files.readAttributes(copy, BasicFileAttributes.class), null);
    assertThat(blobs.registered()).isOne();
    blobs.release("bob");
    assertThat(blobs.registered()).isZero();
  }

  /**
   * The folder's listing keeps names alone (decision 0032): a name whose bytes are not UTF-8 (made
   * by the shell, as Java cannot name such a file) is still read by its own bytes, in name order,
   * and its blob opens by digest.
   */
  @Test
  void aMessageNamedInBytesThatAreNotUtf8IsReadByItsOwnName() throws Exception {
    Path cur = aliceCur();
    Files.write(cur.resolve("1000.M1P1.host:2,S"), FIRST);
    Files.write(cur.resolve("1002.M3P1.host:2,S"), message("third"));
    Process p =
        new ProcessBuilder(
                "sh",
                "-c",
                "printf 'Subject: latin\\n\\nbody\\n' > \"$(printf '1001.M2P1.h\\374st:2,S')\"")
            .directory(cur.toFile())
            .inheritIO()
            .start();
    assertThat(p.waitFor()).isZero();
    try (var names = Files.list(cur)) {
      assertThat(names.map(n -> n.getFileName().toString()))
          .as("the shell made a name Java decodes with a replacement character")
          .anyMatch(n -> n.contains("\uFFFD"));
    }
    try (MailSource source = MaildirSourceContractTest.open(dir.resolve("tree"), "auto")) {
      List<Revision> states = readAlice(source);
      assertThat(states).extracting(Revision::subject).containsExactly("first", "latin", "third");
      assertThat(readVerified(source.blobs(), states.get(1)))
          .isEqualTo("Subject: latin\n\nbody\n".getBytes(StandardCharsets.US_ASCII));
    }
  }
}
