package org.mailrestore.imap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobException;
import org.mailrestore.destination.ItemBatch;
import org.mailrestore.destination.ItemBatch.ItemToWrite;
import org.mailrestore.destination.ItemBatch.Staged;
import org.mailrestore.destination.WholeContent;
import org.mailrestore.destination.WriteContext;
import org.mailrestore.mail.ItemType;
import org.mailrestore.source.Passing;

/**
 * Reads an account's messages as they are appended: held, or spooled to a temporary file when over
 * {@link SpooledMessage#FROM} (decision 0071); their line endings made CRLF and their NUL bytes
 * {@code 0x80}, with what turns them back (decisions 0067, 0072).
 */
final class MessageReader implements AutoCloseable {

  private final WriteContext context;

  /**
   * Content staged as it passed and spooled, until its cluster is committed or the account's
   * restore ends: a cluster written again reads it again.
   */
  private final Set<SpooledMessage> stagedSpools = ConcurrentHashMap.newKeySet();

  MessageReader(WriteContext context) {
    this.context = context;
  }

  /** Takes content as it passes: held up to {@link SpooledMessage#FROM}, spooled past it. */
  Staged stage(ItemType type, Passing content, BlobDigest declared) throws IOException {
    if (type != ItemType.MESSAGE
        || (content.size() >= 0 && content.size() <= SpooledMessage.FROM)) {
      return WholeContent.stage(content, declared);
    }
    SpooledMessage spooled;
    try (InputStream in = content.open()) {
      spooled = SpooledMessage.of(in, content.size(), content.describe());
    }
    if (declared != null && !declared.equals(spooled.digest())) {
      spooled.close();
      throw new BlobException(
          BlobException.Reason.DIGEST_MISMATCH,
          content.describe() + " hashes to " + spooled.digest() + ", not " + declared);
    }
    stagedSpools.add(spooled);
    return new Staged(spooled.digest(), spooled.sourceSize(), spooled);
  }

  /**
   * The message as it will be appended to {@code folder} with {@code flags}. One spooled here is
   * added to {@code spools}, for the caller to close once it is sent.
   *
   * @throws BlobException when its content cannot be read: it fails alone
   */
  Appending read(ItemToWrite item, String folder, List<String> flags, List<SpooledMessage> spools)
      throws IOException {
    Object content = content(item, spools);
    if (content instanceof SpooledMessage spooled) {
      return new Appending(
          item,
          item.folder(),
          folder,
          spooled.size(),
          null,
          spooled,
          spooled.kept().endings(),
          spooled.kept().bareLines(),
          spooled.nulBytes(),
          flags,
          item.state().date(),
          spooled.messageId());
    }
    LineEndings.Converted converted = LineEndings.convert((byte[]) content);
    NulBytes.Replaced sent = NulBytes.replace(converted.crlf());
    return new Appending(
        item,
        item.folder(),
        folder,
        sent.bytes().length,
        sent.bytes(),
        null,
        converted.endings(),
        converted.bareLines(),
        sent.places(),
        flags,
        item.state().date(),
        Appending.messageId(sent.bytes()));
  }

  /**
   * The message's bytes, held, or a {@link SpooledMessage} when it is over {@link
   * SpooledMessage#FROM} (declared so, or found so as it is read when no size is declared).
   */
  private Object content(ItemToWrite item, List<SpooledMessage> spools) throws IOException {
    if (item.staged() != null) {
      return item.staged().handle();
    }
    long size = item.state().size();
    if (size > 0 && size <= SpooledMessage.FROM) {
      return WholeContent.of(item, context);
    }
    String what = "its content (" + item.state().digest() + ")";
    Object content =
        WholeContent.byDigest(
            item,
            context,
            in -> {
              if (size > 0) {
                return SpooledMessage.of(in, size, what);
              }
              byte[] head = in.readNBytes((int) SpooledMessage.FROM + 1);
              if (head.length <= SpooledMessage.FROM) {
                return head;
              }
              return SpooledMessage.of(
                  new SequenceInputStream(new ByteArrayInputStream(head), in), -1, what);
            });
    if (content instanceof SpooledMessage m) {
      spools.add(m);
    }
    return content;
  }

  /** The batch is committed: the content it staged and spooled goes. */
  void committed(ItemBatch batch) {
    for (ItemToWrite item : batch.items()) {
      if (item.staged() != null && item.staged().handle() instanceof SpooledMessage m) {
        stagedSpools.remove(m);
        m.close();
      }
    }
  }

  /** Deletes what is still spooled; never fails. */
  @Override
  public void close() {
    stagedSpools.forEach(SpooledMessage::close);
    stagedSpools.clear();
  }
}
