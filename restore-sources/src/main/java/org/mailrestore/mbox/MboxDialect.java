package org.mailrestore.mbox;

import java.util.Locale;

/**
 * How an mbox file separates and quotes its messages. Every dialect starts a message with a {@code
 * From } line; they differ in how a body line that starts with {@code From } is kept from looking
 * like one.
 */
enum MboxDialect {
  /** Quoted from the file's first message: Content-Length when it is exact there, else mboxrd. */
  AUTO,
  /** {@code From } lines quoted as {@code >From }; reading removes one {@code >} from those. */
  MBOXO,
  /** Every {@code >*From } line quoted with one more {@code >}; reading removes exactly one. */
  MBOXRD,
  /** Messages delimited by {@code Content-Length:}, {@code From } lines quoted as in mboxo. */
  MBOXCL,
  /** Messages delimited by {@code Content-Length:}, nothing quoted. */
  MBOXCL2;

  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static MboxDialect parse(String text) {
    for (MboxDialect d : values()) {
      if (d.wireName().equalsIgnoreCase(text.strip())) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "unknown mbox dialect '" + text + "' (use auto, mboxo, mboxrd, mboxcl or mboxcl2)");
  }

  boolean usesContentLength() {
    return this == MBOXCL || this == MBOXCL2;
  }

  /**
   * How many {@code >} to remove from a line that is {@code >}s then {@code From }: mboxrd removes
   * one from any such line, mboxo and mboxcl only from {@code >From }, mboxcl2 none.
   */
  boolean unquotes(int quotes) {
    return switch (this) {
      case MBOXRD, AUTO -> quotes >= 1;
      case MBOXO, MBOXCL -> quotes == 1;
      case MBOXCL2 -> false;
    };
  }
}
