package org.mailrestore.mbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mailrestore.blob.BlobDigest;
import org.mailrestore.blob.BlobSource;
import org.mailrestore.blob.PathFence;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Domain;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.LocalIdentity;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceProblem;

/**
 * An mbox file, or a tree of them (Thunderbird, Apple Mail, mutt), as one account. Messages are
 * numbered in the order of the sorted files, so the same tree always gives the same ids; the
 * account reference names the tree by its absolute path, so restoring it again skips what is
 * restored (and another mbox restored into the same address is not taken for it).
 */
public final class MboxSource implements MailSource {

  private final Path location;
  private final String address;
  private final MboxDialect dialect;
  private final GmailLabels.Mode labels;
  private final MboxTree tree;
  private final String reference;
  private final long maxItemBytes;
  private volatile Map<String, Integer> leftOut = new java.util.concurrent.ConcurrentHashMap<>();

  MboxSource(
      Path location,
      String address,
      MboxDialect dialect,
      GmailLabels.Mode labels,
      PathFence fence,
      long maxItemBytes)
      throws IOException {
    this.maxItemBytes = maxItemBytes;
    this.location = location.toAbsolutePath().normalize();
    this.address = address.toLowerCase(java.util.Locale.ROOT);
    this.dialect = dialect;
    this.labels = labels;
    this.tree = MboxTree.plan(this.location, fence);
    if (labels == GmailLabels.Mode.FOLDERS) {
      planLabelFolders();
    }
    this.reference =
        "mbox-"
            + BlobDigest.ofContent(this.location.toString().getBytes(StandardCharsets.UTF_8))
                .hex()
                .substring(0, 16)
            + "/"
            + this.address;
  }

  /** With labels as folders, the folders Gmail labels make: one pass over the headers. */
  private void planLabelFolders() throws IOException {
    try (MessageBuffer buffer = new MessageBuffer()) {
      for (MboxTree.MboxFile file : tree.files()) {
        try (MboxReader reader = MboxFiles.reader(tree.fence(), file, dialect)) {
          while (reader.next(buffer) != null) {
            String[] label =
                MessageHeaders.fields(buffer.head(), buffer.headLength(), "x-gmail-labels");
            if (label[0] != null) {
              GmailLabels.Placement p =
                  GmailLabels.place(MessageState.labels(label[0]), GmailLabels.Mode.FOLDERS);
              if (p.folder() != null) {
                tree.addLabelFolder(p.folder());
              }
            }
          }
        } catch (IOException e) {
          // the item pass reports the file
        }
      }
    }
  }

  @Override
  public String describe() {
    return "mbox " + location;
  }

  @Override
  public String identity() throws IOException {
    return LocalIdentity.of(location);
  }

  @Override
  public String accountRef(String accountId) {
    return reference;
  }

  @Override
  public List<Parsed<Domain>> domains() {
    String domain = address.substring(address.indexOf('@') + 1);
    return List.of(new Parsed.Ok<>(Domain.active(domain), domain));
  }

  @Override
  public List<String> accountIds() {
    return List.of(address);
  }

  @Override
  public Parsed<Account> account(String accountId) {
    if (!address.equals(accountId)) {
      return new Parsed.Failed<>(accountId, "this mbox source holds only " + address);
    }
    return new Parsed.Ok<>(Account.ofAddress(address), location.toString());
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return new Parsed.Ok<>(List.of(), location.toString());
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    if (!address.equals(accountId)) {
      throw new IOException("this mbox source holds only " + address);
    }
    boolean messages = types.contains(ItemType.MESSAGE);
    Map<String, Integer> counts = leftOut;
    if (messages) {
      counts = new java.util.concurrent.ConcurrentHashMap<>();
      leftOut = counts;
    }
    return new MboxItems(tree, dialect, labels, types, counts, maxItemBytes);
  }

  /** Every message passes with its item; nothing is read by digest. */
  @Override
  public BlobSource blobs() {
    return MailSource.passingOnly(location.toString());
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    List<SourceProblem> problems = new ArrayList<>(tree.problems());
    leftOut.forEach((what, n) ->
        problems.add(
            SourceProblem.notCarried(location.toString(), n + " " + what + ": not restored")));
    return problems;
  }

  @Override
  public void close() {}
}
