package org.mailrestore.zimbra;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Zimbra account ids and the addresses they belong to, from a file the administrator makes on the
 * Zimbra server ({@code zmprov -l gaa} then {@code zmprov -l ga <address> zimbraId}): an archive
 * names the owners of its mountpoints and the grantees of its shares only by these ids. One {@code
 * <id> <address>} pair per line, in either order; blank lines and {@code #} comments are ignored.
 */
final class ZimbraIds {

  static final ZimbraIds NONE = new ZimbraIds(Map.of());

  private static final Pattern ID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final Map<String, String> addressById;

  private ZimbraIds(Map<String, String> addressById) {
    this.addressById = Map.copyOf(addressById);
  }

  /**
   * Reads the pairs.
   *
   * @throws IOException when a line is neither blank, a comment nor an id and an address
   */
  static ZimbraIds read(Reader in, String source) throws IOException {
    Map<String, String> map = new HashMap<>();
    BufferedReader lines = new BufferedReader(in);
    String line;
    int number = 0;
    while ((line = lines.readLine()) != null) {
      number++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] parts = l.split("[\\s,;]+");
      String id = null;
      String address = null;
      for (String p : parts) {
        if (ID.matcher(p).matches()) {
          id = p.toLowerCase(Locale.ROOT);
        } else if (p.indexOf('@') > 0) {
          address = p.toLowerCase(Locale.ROOT);
        }
      }
      if (parts.length != 2 || id == null || address == null) {
        throw new IOException(
            source
                + " line "
                + number
                + ": expected a Zimbra account id and an address, such as"
                + " \"8a7b0c1e-2f3d-4e5f-8a9b-0c1d2e3f4a5b alice@example.org\"");
      }
      map.put(id, address);
    }
    return new ZimbraIds(map);
  }

  /** The address of a Zimbra account id, or null when the file does not name it. */
  String address(String zimbraId) {
    return zimbraId == null ? null : addressById.get(zimbraId.toLowerCase(Locale.ROOT));
  }

  boolean isEmpty() {
    return addressById.isEmpty();
  }
}
