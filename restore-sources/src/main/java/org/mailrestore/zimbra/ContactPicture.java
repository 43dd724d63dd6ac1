package org.mailrestore.zimbra;

import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A contact's picture: Zimbra keeps a contact's attachments as the parts of its content (a MIME
 * message), each named in the metadata's {@code att} list by its field ({@code image} for the
 * picture), its part ({@code 1}, {@code 2.1}...) and its type. The picture travels as the field
 * {@code image}, a {@code data:} URI, which the DAV target writes as the card's {@code PHOTO}.
 */
final class ContactPicture {

  /** The field Zimbra gives a contact's picture. */
  static final String FIELD = "image";

  /** The largest picture carried; a larger one is left out, counted. */
  static final int MAX_BYTES = 512 * 1024;

  /** The most of a contact's content read to find its picture. */
  static final long MAX_CONTENT_BYTES = 8L * 1024 * 1024;

  private static final Session SESSION = Session.getInstance(new Properties());

  /** Where a contact's picture is in its content, by its metadata. */
  record Where(String part, String mediaType) {}

  /** What became of a picture. */
  sealed interface Outcome {}

  /** The picture, as its field's value. */
  record Found(String dataUri) implements Outcome {}

  /** No picture carried, and why (counted among what is left out). */
  record LeftOut(String why) implements Outcome {}

  private ContactPicture() {}

  /** Where the picture is, from a contact's decoded metadata; null when it has none. */
  static Where where(Map<String, Object> metadata) {
    if (!(metadata.get("att") instanceof List<?> attachments)) {
      return null;
    }
    for (Object a : attachments) {
      if (a instanceof Map<?, ?> m
          && FIELD.equals(String.valueOf(m.get("field")))
          && m.get("part") != null) {
        Object type = m.get("ctype");
        return new Where(String.valueOf(m.get("part")), type == null ? null : type.toString());
      }
    }
    return null;
  }

  /** Whether the metadata names attachments other than the picture (files), left out. */
  static boolean hasOtherAttachments(Map<String, Object> metadata) {
    return metadata.get("att") instanceof List<?> attachments
        && attachments.stream()
            .anyMatch(
                a -> !(a instanceof Map<?, ?> m) || !FIELD.equals(String.valueOf(m.get("field"))));
  }

  /** The picture read from a contact's content ({@code size} bytes, read to its end or not). */
  static Outcome read(InputStream content, long size, Where where) {
    if (size > MAX_CONTENT_BYTES) {
      return new LeftOut("contact pictures in a content over " + MAX_CONTENT_BYTES + " bytes");
    }
    try {
      MimeMessage message = new MimeMessage(SESSION, content);
      Part part = part(message, where.part());
      if (part == null) {
        return new LeftOut("contact pictures whose part is not in the contact's content");
      }
      byte[] bytes;
      try (InputStream in = part.getInputStream()) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
      if (bytes.length > MAX_BYTES) {
        return new LeftOut("contact pictures over " + MAX_BYTES / 1024 + " KiB");
      }
      if (bytes.length == 0) {
        return new LeftOut("contact pictures that are empty");
      }
      return new Found(dataUri(mediaType(part, where), bytes));
    } catch (MessagingException | IOException e) {
      return new LeftOut("contact pictures that cannot be read from the contact's content");
    }
  }

  /** {@code data:<type>;base64,<bytes>}: the one form a picture takes as a field's value. */
  static String dataUri(String mediaType, byte[] bytes) {
    return "data:" + mediaType + ";base64," + Base64.getEncoder().encodeToString(bytes);
  }

  private static String mediaType(Part part, Where where) throws MessagingException {
    String declared = where.mediaType();
    if (declared == null || declared.isBlank()) {
      declared = part.getContentType();
    }
    String type = declared.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    return type.matches("[a-z0-9.+-]+/[a-z0-9.+-]+") ? type : "application/octet-stream";
  }

  /** A part by Zimbra's name: {@code 2} is the second part, {@code 2.1} the first part of it. */
  private static Part part(MimeMessage message, String name)
      throws MessagingException, IOException {
    Part at = message;
    for (String step : name.split("\\.")) {
      int index;
      try {
        index = Integer.parseInt(step.strip());
      } catch (NumberFormatException e) {
        return null;
      }
      if (at.isMimeType("multipart/*") && at.getContent() instanceof Multipart multipart) {
        if (index < 1 || index > multipart.getCount()) {
          return null;
        }
        BodyPart child = multipart.getBodyPart(index - 1);
        at = child;
      } else if (index == 1 && at == message) {
        return message; // a single-part content is its own part 1
      } else {
        return null;
      }
    }
    return at;
  }
}
