package org.mailrestore.zimbra;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.mailrestore.blob.BlobException;
import org.mailrestore.source.Passing;
import org.mailrestore.zimbra.TarReader.Entry;

/**
 * An item's content entry as it passes: readable once, before the archive moves on. At its end it
 * checks what the item's stream cannot: an old archive's SHA-1, and Zimbra's {@code .err} mark
 * after a blob whose size did not match its database row.
 */
final class EntryContent implements Passing {

  private final ArchiveRecords records;
  private final Entry entry;
  private final byte[] head;
  private final byte[] sha1;
  private final String describe;
  private final BooleanSupplier current;
  private boolean opened;

  /**
   * @param head bytes of the entry already read (to parse headers), or null
   * @param sha1 the SHA-1 the archive declares, or null
   * @param current true while the archive has not moved past this entry
   */
  EntryContent(
      ArchiveRecords records,
      Entry entry,
      byte[] head,
      byte[] sha1,
      String describe,
      BooleanSupplier current) {
    this.records = records;
    this.entry = entry;
    this.head = head;
    this.sha1 = sha1;
    this.describe = describe;
    this.current = current;
  }

  @Override
  public InputStream open() {
    if (opened || !current.getAsBoolean()) {
      throw new IllegalStateException(
          describe + " was read already, or the archive has moved past it");
    }
    opened = true;
    InputStream body = records.content();
    InputStream in =
        head == null ? body : new SequenceInputStream(new ByteArrayInputStream(head), body);
    return new Checked(in);
  }

  @Override
  public long size() {
    return entry.size();
  }

  @Override
  public String describe() {
    return describe;
  }

  /** The content, checked at its end. */
  private final class Checked extends InputStream {
    private final InputStream in;
    private final MessageDigest digest;
    private boolean ended;
    private long count;

    Checked(InputStream in) {
      this.in = in;
      MessageDigest d = null;
      if (sha1 != null) {
        try {
          d = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException(e);
        }
      }
      this.digest = d;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (ended) {
        return -1; // the archive has been read past this entry (to look for an .err mark)
      }
      if (len == 0) {
        return 0;
      }
      int n = in.read(b, off, len);
      if (n > 0) {
        if (digest != null) {
          digest.update(b, off, n);
        }
        count += n;
      }
      // checked as the last byte passes: a reader that stops at the declared size sees it too
      if ((n < 0 || count == entry.size()) && !ended) {
        ended = true;
        atEnd();
      }
      return n;
    }

    private void atEnd() throws IOException {
      if (records.flaggedAfter(entry)) {
        throw new BlobException(
            BlobException.Reason.SIZE_MISMATCH,
            describe
                + ": Zimbra marked it at export (an .err entry follows): its blob did not have the"
                + " size its database row gives, so the archive holds it padded or cut");
      }
      if (digest != null && !Arrays.equals(digest.digest(), sha1)) {
        throw new BlobException(
            BlobException.Reason.DIGEST_MISMATCH,
            describe + ": its bytes do not hash to the SHA-1 its .meta declares");
      }
    }
  }
}
