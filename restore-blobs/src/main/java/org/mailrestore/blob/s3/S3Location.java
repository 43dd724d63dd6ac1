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
   * Parses {@code s3://bucket/prefix}.
   *
   * @throws IllegalArgumentException when the text is not of that form
   */
  public static S3Location parse(String uri) {
    java.net.URI u;
    try {
      u = java.net.URI.create(uri);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not an s3://bucket/prefix location: " + uri, e);
    }
    if (!"s3".equals(u.getScheme()) || u.getHost() == null) {
      throw new IllegalArgumentException("not an s3://bucket/prefix location: " + uri);
    }
    return new S3Location(u.getHost(), u.getPath());
  }

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
