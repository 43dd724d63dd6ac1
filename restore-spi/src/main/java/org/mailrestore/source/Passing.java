package org.mailrestore.source;

import java.io.IOException;
import java.io.InputStream;

/**
 * Content that follows its item in a stream read once, such as a compressed archive: it can be read
 * now, before the item stream moves on, and never again. The restore stores it (or spools it) at
 * once; a source whose content can be opened later offers it through {@link MailSource#blobs()}
 * instead.
 */
public interface Passing {

  /**
   * The content's bytes as they pass. The stream ends where the content ends; it fails (as an
   * {@link IOException}) when the source is cut short or the content is longer or shorter than
   * declared.
   *
   * @throws IllegalStateException when called a second time or after the stream moved on
   */
  InputStream open() throws IOException;

  /** The content's size as declared, or -1 when unknown. */
  long size();

  /** Where the content is, for messages (an entry of an archive). */
  String describe();
}
