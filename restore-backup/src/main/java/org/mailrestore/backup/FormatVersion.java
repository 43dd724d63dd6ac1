package org.mailrestore.backup;

/**
 * The version of the backup format: readers accept any minor version of a major they know (new
 * minor versions only add optional fields) and refuse other majors.
 */
public record FormatVersion(int major, int minor) {

  public static final FormatVersion CURRENT = new FormatVersion(1, 0);

  public static FormatVersion parse(String text) {
    String[] parts = text == null ? new String[0] : text.trim().split("\\.", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException("format version must look like 1.0, got: " + text);
    }
    try {
      return new FormatVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("format version must look like 1.0, got: " + text, e);
    }
  }

  public boolean isReadable() {
    return major == CURRENT.major;
  }

  @Override
  public String toString() {
    return major + "." + minor;
  }
}
