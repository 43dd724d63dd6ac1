package org.mailrestore.blob.s3;

/** A place in a bucket: every key under it starts with {@code prefix} (empty, or ending in '/'). */
public record S3Location(String bucket, String prefix) {

  public S3Location {
    if (bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("an S3 location needs a bucket");
    }
    prefix = normalize(prefix);
  }

  private static String normalize(String prefix) {
    if (prefix == null || prefix.isBlank() || prefix.equals("/")) {
      return "";
    }
    String p = prefix.startsWith("/") ? prefix.substring(1) : prefix;
    return p.endsWith("/") ? p : p + "/";
  }

  /**
   * Parses {@code s3://bucket/prefix}: a bucket name as S3 allows it (3 to 63 letters, digits,
   * dots, hyphens or underscores; no user, no port) and a prefix of plain segments (no {@code .},
   * {@code ..} or empty segment, escaped or not), so a location names one place and no other.
   *
   * @throws IllegalArgumentException when the text is not of that form, saying why
   */
  public static S3Location parse(String uri) {
    java.net.URI u;
    try {
      u = java.net.URI.create(uri);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not an s3://bucket/prefix location", e);
    }
    if (!"s3".equals(u.getScheme()) || u.getRawAuthority() == null) {
      throw new IllegalArgumentException("not an s3://bucket/prefix location");
    }
    String bucket = u.getRawAuthority();
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new IllegalArgumentException(
          "the bucket must be 3 to 63 letters, digits, dots, hyphens or underscores"
              + " (no user, no port, no \"..\")");
    }
    if (u.getRawQuery() != null || u.getRawFragment() != null) {
      throw new IllegalArgumentException("an S3 location has no query and no fragment");
    }
    String path = u.getPath() == null ? "" : u.getPath();
    String inner = path.startsWith("/") ? path.substring(1) : path;
    inner = inner.endsWith("/") ? inner.substring(0, inner.length() - 1) : inner;
    if (!inner.isEmpty()) {
      for (String segment : inner.split("/", -1)) {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
          throw new IllegalArgumentException(
              "the prefix must be plain names separated by single slashes (no \".\", \"..\" or"
                  + " empty segment)");
        }
      }
    }
    return new S3Location(bucket, path);
  }

  private static final java.util.regex.Pattern BUCKET =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]");

  /** The key of {@code relative} under this location. */
  public String key(String relative) {
    return prefix + relative;
  }

  /** The location of a sub-directory. */
  public S3Location resolve(String relative) {
    return new S3Location(bucket, key(relative));
  }

  @Override
  public String toString() {
    return "s3://" + bucket + "/" + prefix;
  }
}
