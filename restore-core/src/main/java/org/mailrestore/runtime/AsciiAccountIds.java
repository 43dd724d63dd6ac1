package org.mailrestore.runtime;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.mailrestore.mail.Account;
import org.mailrestore.mail.Grant;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Parsed;
import org.mailrestore.source.ForwardingMailSource;
import org.mailrestore.source.ItemStream;
import org.mailrestore.source.MailSource;
import org.mailrestore.source.SourceProblem;

/**
 * A source's account ids as the engine keeps them: printable ASCII (space included), each other
 * character (and {@code %}) as {@code %XX} of its UTF-8 bytes, turned back for the source. A source
 * names some accounts by what it found on disk (a Maildir user directory {@code josé}, a vdir
 * {@code josé@example.org}); recorded as they were, such an id failed the whole operation ("Illegal
 * mix of collations": the bookkeeping's id columns are ASCII). Ids of printable ASCII without
 * {@code %} (every backup's, most trees') pass unchanged.
 */
final class AsciiAccountIds extends ForwardingMailSource {

  private static final HexFormat HEX = HexFormat.of().withUpperCase();

  AsciiAccountIds(MailSource delegate) {
    super(delegate);
  }

  /** The id the engine keeps for a source's id. */
  static String encode(String id) {
    if (isPlain(id)) {
      return id;
    }
    StringBuilder ascii = new StringBuilder(id.length() + 8);
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      if (b >= 0x20 && b < 0x7F && b != '%') {
        ascii.append((char) b);
      } else {
        ascii.append('%').append(HEX.toHexDigits(b));
      }
    }
    return ascii.toString();
  }

  /** The source's id for one the engine keeps; an id not made by {@link #encode} as it is. */
  static String decode(String id) {
    if (id.indexOf('%') < 0) {
      return id;
    }
    // Over the id's bytes: what encode made is ASCII, and anything else passes as it is.
    byte[] in = id.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '%'
          && i + 2 < in.length
          && HexFormat.isHexDigit(in[i + 1])
          && HexFormat.isHexDigit(in[i + 2])) {
        out.write(HexFormat.fromHexDigit(in[i + 1]) << 4 | HexFormat.fromHexDigit(in[i + 2]));
        i += 2;
      } else {
        out.write(in[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static boolean isPlain(String id) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < 0x20 || c >= 0x7F || c == '%') {
        return false;
      }
    }
    return true;
  }

  @Override
  public String accountRef(String accountId) {
    return delegate.accountRef(decode(accountId));
  }

  @Override
  public List<String> accountIds() {
    return delegate.accountIds().stream().map(AsciiAccountIds::encode).toList();
  }

  @Override
  public Parsed<Account> account(String accountId) {
    return delegate.account(decode(accountId));
  }

  @Override
  public Parsed<List<Grant>> grants(String accountId) {
    return delegate.grants(decode(accountId));
  }

  @Override
  public ItemStream items(String accountId, Set<ItemType> types) throws IOException {
    return delegate.items(decode(accountId), types);
  }

  @Override
  public List<SourceProblem> problems(String accountId) {
    return delegate.problems(decode(accountId));
  }

  @Override
  public void doneWith(String accountId) {
    delegate.doneWith(decode(accountId));
  }

  @Override
  public void doneWithItems(String accountId, List<Item> items) {
    delegate.doneWithItems(decode(accountId), items);
  }
}
