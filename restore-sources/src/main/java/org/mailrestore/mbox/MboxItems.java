package org.mailrestore.mbox;

import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mailrestore.blob.ItemSizeLimit;
import org.mailrestore.kind.FailureReason;
import org.mailrestore.mail.Item;
import org.mailrestore.mail.ItemType;
import org.mailrestore.mail.Revision;
import org.mailrestore.mail.TextRules;
import org.mailrestore.message.MessageHeaders;
import org.mailrestore.source.ItemEntry;
import org.mailrestore.source.Passing;
import org.mailrestore.source.PassingItemStream;

/**
 * An mbox account's items: its folders, then each file's messages in file order, each message's
 * bytes passing to the restore as they are read (buffered, so its size and digest come first).
 */
final class MboxItems extends PassingItemStream {

  /** A separator's date: {@code Thu Jan 1 00:00:00 2015}, maybe with a zone before the year. */
  private static final Pattern SEPARATOR_DATE =
      Pattern.compile(
          "((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec))\\s+(\\d{1,2})\\s+"
              + "(\\d{1,2}:\\d{2}(?::\\d{2})?)\\s+(?:([+-]\\d{4}|[A-Z]{3,4})\\s+)?(\\d{4})"
              + "(?:\\s+([+-]\\d{4}))?");

  private static final DateTimeFormatter SEPARATOR_FORMAT =
      DateTimeFormatter.ofPattern("MMM d H:mm[:ss] yyyy", Locale.ROOT);

  private final MboxTree tree;
  private final MboxDialect dialect;
  private final GmailLabels.Mode labels;
  private final Map<String, Integer> leftOut;
  private final Iterator<MboxTree.Folder> folders;
  private final Iterator<MboxTree.MboxFile> files;
  private final MessageBuffer buffer;
  private final long maxItemBytes;
  private MboxTree.MboxFile file;
  private MboxReader reader;
  private int nextId;
  private MboxReader.Start
      held; // a message read, returned after the entry reporting text before it
  private int heldId;
  private boolean firstOfFile; // the next message read is the file's first

  MboxItems(
      MboxTree tree,
      MboxDialect dialect,
      GmailLabels.Mode labels,
      Set<ItemType> types,
      Map<String, Integer> leftOut,
      long maxItemBytes) {
    this.tree = tree;
    this.maxItemBytes = maxItemBytes;
    this.buffer = new MessageBuffer(maxItemBytes);
    this.dialect = dialect;
    this.labels = labels;
    this.leftOut = leftOut;
    this.folders =
        types.contains(ItemType.FOLDER)
            ? tree.folders().iterator()
            : List.<MboxTree.Folder>of().iterator();
    this.files =
        types.contains(ItemType.MESSAGE)
            ? tree.files().iterator()
            : List.<MboxTree.MboxFile>of().iterator();
    this.nextId = tree.firstMessageId();
  }

  @Override
  protected ItemEntry advance() {
    if (folders.hasNext()) {
      MboxTree.Folder f = folders.next();
      Revision r =
          Revision.builder(1, 0).folder(f.parentId()).name(f.name()).view("message").build();
      return new ItemEntry.Decoded(
          new Item(f.id(), ItemType.FOLDER, List.of(r)), String.join("/", f.segments()));
    }
    if (held != null) {
      MboxReader.Start start = held;
      held = null;
      try {
        ItemEntry entry = entry(heldId, start);
        if (entry != null) {
          return entry;
        }
      } catch (IOException e) {
        closeReader();
        return cannotReadOn(e);
      }
    }
    while (true) {
      if (reader == null) {
        if (!files.hasNext()) {
          return null;
        }
        file = files.next();
        try {
          reader = MboxFiles.reader(tree.fence(), file, dialect);
          firstOfFile = true;
        } catch (IOException e) {
          return new ItemEntry.Undecodable(
              0, null, file.relative(), "cannot be read: " + e.getMessage(), false);
        }
      }
      try {
        MboxReader.Start start = reader.next(buffer);
        if (start == null) {
          closeReader();
          continue;
        }
        int id = nextId++;
        MboxReader.Leading leading = reader.takeLeading();
        if (leading != null) {
          // Reported first; the message read after it is returned by the next call.
          held = start;
          heldId = id;
          return new ItemEntry.Undecodable(
              0,
              ItemType.MESSAGE,
              file.relative() + " (bytes " + leading.offset() + " to " + start.offset() + ")",
              leading.length()
                  + " bytes of text before the file's first \"From \" separator line are not a"
                  + " message; passed over, the messages after it are restored",
              false);
        }
        ItemEntry entry = entry(id, start);
        if (entry != null) {
          return entry;
        }
      } catch (IOException e) {
        closeReader();
        return cannotReadOn(e);
      }
    }
  }

  private ItemEntry cannotReadOn(IOException e) {
    return new ItemEntry.Undecodable(
        0,
        ItemType.MESSAGE,
        file.relative(),
        "cannot be read on: " + e.getMessage() + "; the messages after this point are not restored",
        false);
  }

  /**
   * Whether a file's first message is the one UW-IMAP's c-client (and so Pine) puts at the start of
   * an mbox to keep the folder's UIDVALIDITY: it says so in its subject, with an {@code X-IMAP}
   * header (Dovecot's own is {@code X-IMAPbase}, in a real message). Servers hide it; so do we.
   */
  private static boolean isFolderData(String subject, String xImap) {
    return xImap != null && subject != null && subject.contains("FOLDER INTERNAL DATA");
  }

  /** The message in the buffer: null when it is left out. */
  private ItemEntry entry(int id, MboxReader.Start start) throws IOException {
    if (buffer.tooLarge()) {
      return new ItemEntry.Undecodable(
          id,
          ItemType.MESSAGE,
          file.relative() + " (message at byte " + start.offset() + ")",
          ItemSizeLimit.tooLarge("the message (" + buffer.size() + " bytes)", maxItemBytes)
              .getMessage(),
          false,
          FailureReason.ITEM_TOO_LARGE);
    }
    return message(id, start);
  }

  private ItemEntry message(int id, MboxReader.Start start) throws IOException {
    String location = file.relative() + " (message at byte " + start.offset() + ")";
    String[] values =
        MessageHeaders.fields(
            buffer.head(),
            buffer.headLength(),
            "from",
            "subject",
            "date",
            MessageState.FIELDS[0],
            MessageState.FIELDS[1],
            MessageState.FIELDS[2],
            MessageState.FIELDS[3],
            MessageState.FIELDS[4],
            MessageState.FIELDS[5],
            MessageState.FIELDS[6],
            "x-imap");
    boolean first = firstOfFile;
    firstOfFile = false;
    if (first && isFolderData(values[1], values[3 + MessageState.FIELDS.length])) {
      leftOut.merge(
          "pseudo messages of UW-IMAP and Pine (\"FOLDER INTERNAL DATA\"): folder data, not mail",
          1,
          Integer::sum);
      return null;
    }
    MessageState state =
        MessageState.of(Arrays.copyOfRange(values, 3, 3 + MessageState.FIELDS.length));
    if (state.expunged()) {
      leftOut.merge(
          "messages Thunderbird had deleted (marked expunged, awaiting compaction)",
          1,
          Integer::sum);
      return null;
    }
    GmailLabels.Placement place = GmailLabels.place(state.labels(), labels);
    int folder = place.folder() == null ? -1 : tree.folderId(place.folder(), false);
    if (folder < 0) {
      folder = tree.folderId(file.folder(), false);
    }
    Long date = separatorDate(start.separator());
    if (date == null) {
      date = MessageHeaders.parseDate(values[2]);
    }
    if (date == null) {
      date = tree.fence().attributes(file.path()).lastModifiedTime().toMillis();
    }
    Revision r =
        Revision.builder(1, 0)
            .folder(folder)
            .flags(state.flags())
            .tags(tags(place.tags(), state.tags()))
            .date(date)
            .blob(buffer.size(), buffer.digest())
            .sender(
                MessageHeaders.clean(
                    values[0] == null ? null : MessageHeaders.decodeWords(values[0]),
                    TextRules.MAX_SENDER_LENGTH))
            .subject(
                MessageHeaders.clean(
                    values[1] == null ? null : MessageHeaders.decodeWords(values[1]),
                    TextRules.MAX_SUBJECT_LENGTH))
            .build();
    BooleanSupplier current = whileCurrent();
    Passing content =
        new Passing() {
          private boolean opened;

          @Override
          public InputStream open() throws IOException {
            if (opened || !current.getAsBoolean()) {
              throw new IllegalStateException(location + " was read already, or passed");
            }
            opened = true;
            return buffer.open();
          }

          @Override
          public long size() {
            return buffer.size();
          }

          @Override
          public String describe() {
            return location;
          }
        };
    return new ItemEntry.Decoded(new Item(id, ItemType.MESSAGE, List.of(r)), location, content);
  }

  /** Gmail's tags, then those of the message's keywords, each once (tags ignore case). */
  private static List<String> tags(List<String> labels, List<String> keywords) {
    if (keywords.isEmpty()) {
      return labels;
    }
    List<String> tags = new ArrayList<>(labels);
    for (String tag : keywords) {
      if (tags.stream().noneMatch(tag::equalsIgnoreCase)) {
        tags.add(tag);
      }
    }
    return tags;
  }

  /** {@code <date>[T ]<time>[zone]} of an ISO 8601 separator date. */
  private static final Pattern ISO_DATE =
      Pattern.compile(
          "(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}(?::\\d{2})?)(Z|[+-]\\d{2}:?\\d{2})?");

  /**
   * Epoch milliseconds of a separator line's date (asctime's, or the RFC 5322 and ISO 8601 forms
   * some exporters write), or null.
   */
  static Long separatorDate(String separator) {
    Matcher m = SEPARATOR_DATE.matcher(separator);
    if (!m.find()) {
      return otherSeparatorDate(separator);
    }
    try {
      LocalDateTime t =
          LocalDateTime.parse(
              m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(5),
              SEPARATOR_FORMAT);
      String zone =
          m.group(4) != null && m.group(4).matches("[+-]\\d{4}") ? m.group(4) : m.group(6);
      ZoneOffset offset =
          zone == null
              ? ZoneOffset.UTC
              : ZoneOffset.of(zone.substring(0, 3) + ":" + zone.substring(3));
      return t.toInstant(offset).toEpochMilli();
    } catch (java.time.DateTimeException e) {
      return null;
    }
  }

  private static Long otherSeparatorDate(String separator) {
    String[] words = separator.split("\\s+", 3);
    if (words.length < 3) {
      return null;
    }
    Long rfc5322 = MessageHeaders.parseDate(words[2]);
    if (rfc5322 != null) {
      return rfc5322;
    }
    Matcher iso = ISO_DATE.matcher(words[2]);
    if (!iso.lookingAt()) {
      return null;
    }
    try {
      LocalDateTime t = LocalDateTime.parse(iso.group(1) + "T" + iso.group(2));
      // ZoneOffset reads Z, +hhmm and +hh:mm alike.
      ZoneOffset offset = iso.group(3) == null ? ZoneOffset.UTC : ZoneOffset.of(iso.group(3));
      return t.toInstant(offset).toEpochMilli();
    } catch (java.time.DateTimeException e) {
      return null;
    }
  }

  private void closeReader() {
    if (reader != null) {
      try {
        reader.close();
      } catch (IOException e) {
        // a file we only read
      }
      reader = null;
    }
  }

  @Override
  public void close() {
    closeReader();
    try {
      buffer.close();
    } catch (IOException e) {
      // a spool file of ours: the next restart's temp cleanup takes it
    }
  }
}
