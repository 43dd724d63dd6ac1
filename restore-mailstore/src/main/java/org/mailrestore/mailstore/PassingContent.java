package org.mailrestore.mailstore;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.StoredBlob;
import org.mailrestore.blob.VerifyingInputStream;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.source.Passing;

/**
 * Content that passes with its item (an mbox's messages, an archive's), staged as it passes: held
 * for its cluster's lookup when the volume may hold its digest (decision 0081), written behind its
 * reader ({@link WriteBehind}, decision 0079), or written at once. {@link BlobTransfer} collects
 * what was staged when the item's cluster is written.
 */
final class PassingContent {

  /** Passing content of unknown digest up to this size is hashed in memory, larger spooled. */
  private static final int IN_MEMORY = 8 << 20;

  /**
   * Passing content of a digest the volume may hold already: kept in memory, not written, until its
   * cluster asks the volume (one query for the cluster) and writes it only if the answer is no.
   */
  record Held(byte[] bytes) {}

  private final WritableVolume target;
  private final WriteContext context;
  private final WriteBehind behind;

  /** Writes behind still running: the writer waits for them as it closes. */
  private final Set<Future<WritesInFlight.Written>> running = ConcurrentHashMap.newKeySet();

  /** Content held for its cluster's lookup, whose room is not given back yet. */
  private final Set<Held> holding = ConcurrentHashMap.newKeySet();

  PassingContent(WritableVolume target, WriteContext context, WriteBehind behind) {
    this.target = target;
    this.context = context;
    this.behind = behind;
  }

  /**
   * Takes content as it passes. With a declared digest it is checked as it is read, and a mismatch
   * fails here; without one, its digest is computed first (in memory for small content, through a
   * spool file for large). Content of a digest the volume may hold already is kept for its
   * cluster's lookup, when there is room for it, else asked for alone, so that list mail in a
   * hundred archives is stored once. The rest is written behind its reader when {@link WriteBehind}
   * takes it, otherwise at once.
   */
  Staged stage(Passing content, BlobDigest declared) throws IOException {
    long size = content.size();
    if (declared != null) {
      try (InputStream in =
          new VerifyingInputStream(content.open(), declared, size, content::describe)) {
        boolean maybe = size >= 0 && mayHold(declared);
        if (maybe && size <= IN_MEMORY && behind.tryHold((int) size)) {
          byte[] bytes;
          try {
            bytes = in.readNBytes((int) size);
            in.read(); // the end, where the digest and size are checked: -1, or it throws
          } catch (IOException | RuntimeException e) {
            behind.unhold((int) size);
            throw e;
          }
          return held(declared, bytes);
        }
        StoredBlob there = maybe ? lookUp(declared) : null;
        if (there != null) {
          in.transferTo(OutputStream.nullOutputStream()); // its content checked all the same
          return found(there);
        }
        if (size >= 0 && behind.takes(size)) {
          byte[] bytes = in.readNBytes((int) size);
          in.read(); // the end, where the digest and size are checked: -1, or it throws
          return writeBehind(declared, bytes);
        }
        WritesInFlight.Written w = target.writeOnce(declared, size, in);
        if (w.shared()) {
          in.transferTo(OutputStream.nullOutputStream()); // its content checked all the same
        }
        return written(w);
      }
    }
    MessageDigest sha = BlobDigest.newSha256();
    try (InputStream raw = new DigestInputStream(content.open(), sha)) {
      byte[] head = raw.readNBytes(IN_MEMORY + 1);
      if (head.length <= IN_MEMORY) {
        BlobDigest digest = BlobDigest.of(sha.digest());
        if (mayHold(digest)) {
          if (behind.tryHold(head.length)) {
            return held(digest, head);
          }
          StoredBlob there = lookUp(digest);
          if (there != null) {
            return found(there);
          }
        }
        if (behind.takes(head.length)) {
          return writeBehind(digest, head);
        }
        return written(target.writeOnce(digest, head));
      }
      Path spool = Files.createTempFile("mailrestore-spool", ".eml");
      try {
        long total;
        try (OutputStream out = Files.newOutputStream(spool)) {
          out.write(head);
          total = head.length + raw.transferTo(out);
        }
        BlobDigest digest = BlobDigest.of(sha.digest());
        StoredBlob there = mayHold(digest) ? lookUp(digest) : null;
        if (there != null) {
          return found(there);
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(spool), 1 << 16)) {
          return written(target.writeOnce(digest, total, in));
        }
      } finally {
        Files.deleteIfExists(spool);
      }
    }
  }

  /** Whether the volume may hold this digest, or another cluster is writing it. */
  private boolean mayHold(BlobDigest digest) {
    return target.recorded().mightHold(digest) || target.flights().writing(digest);
  }

  /**
   * The volume's blob of this digest, asked alone: its content is too large to hold for its
   * cluster's lookup, or the room for held content is full. Null when the volume lacks it, or when
   * the database cannot say: the content is then written, which costs a copy, not the item.
   */
  private StoredBlob lookUp(BlobDigest digest) {
    try {
      return target.rows().present(target.id(), List.of(digest)).get(digest);
    } catch (SQLException e) {
      return null;
    }
  }

  private Staged held(BlobDigest digest, byte[] bytes) {
    Held held = new Held(bytes);
    holding.add(held);
    return new Staged(digest, bytes.length, held);
  }

  /** Gives back the room of content held for a lookup (once; its bytes stay with its item). */
  void release(Held held) {
    if (holding.remove(held)) {
      behind.unhold(held.bytes().length);
    }
  }

  private static Staged written(WritesInFlight.Written w) {
    return new Staged(w.blob().digest(), w.blob().rawSize(), CompletableFuture.completedFuture(w));
  }

  /** Content the volume holds already: its blob, shared, and nothing written. */
  private static Staged found(StoredBlob there) {
    return written(new WritesInFlight.Written(there, true));
  }

  /**
   * Writes content held in memory on the io threads, once there is room for it: the reader goes on
   * while the volume writes (an S3 volume's round trip per blob would otherwise be waited out once
   * per message).
   */
  private Staged writeBehind(BlobDigest digest, byte[] bytes) throws IOException {
    int size = bytes.length;
    behind.enter(size);
    FutureTask<WritesInFlight.Written> write =
        new FutureTask<>(() -> target.writeOnce(digest, bytes)) {
          @Override
          protected void done() {
            running.remove(this);
            behind.leave(size);
          }
        };
    running.add(write);
    try {
      context.io().execute(write);
    } catch (RejectedExecutionException e) {
      write.cancel(false);
      throw new IOException("the restore is stopping: content not written", e);
    }
    return new Staged(digest, size, write);
  }

  /**
   * Waits for the writes behind still running (their items may have been skipped, or the account
   * stopped): nothing of this account still writes once its writer is closed. A blob no cluster
   * recorded stays unreferenced, as after a crash. Content still held for a lookup gives its room
   * back.
   */
  void settle() {
    List.copyOf(holding).forEach(this::release);
    for (Future<WritesInFlight.Written> write : List.copyOf(running)) {
      try {
        write.get();
      } catch (ExecutionException | CancellationException e) {
        // Not restored: nothing refers to it, and its item was reported where it was left out.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
