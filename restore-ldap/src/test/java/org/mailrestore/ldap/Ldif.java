package org.mailrestore.ldap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.mailrestore.testkit.SlapdServer;

/** What OpenLDAP's own {@code ldapsearch} prints, read into entries: the tests' reader. */
final class Ldif {

  private Ldif() {}

  /** Entries by DN (lower case); attributes by lower-case name, values in order. */
  static Map<String, Map<String, List<String>>> search(
      SlapdServer slapd, String base, String filter, String... attributes) throws IOException {
    List<String> args = new ArrayList<>(List.of("-LLL", "-b", base, filter));
    args.addAll(List.of(attributes));
    String out = slapd.ldap("ldapsearch", null, args.toArray(String[]::new));
    Map<String, Map<String, List<String>>> entries = new TreeMap<>();
    Map<String, List<String>> current = null;
    for (String line : out.split("\n")) {
      if (line.isBlank()) {
        current = null;
        continue;
      }
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
      String value;
      if (line.startsWith("::", colon)) {
        value =
            new String(
                Base64.getDecoder().decode(line.substring(colon + 2).strip()),
                StandardCharsets.UTF_8);
      } else {
        value = line.substring(colon + 1).strip();
      }
      if (name.equals("dn")) {
        current = new LinkedHashMap<>();
        entries.put(value.toLowerCase(Locale.ROOT), current);
      } else if (current != null) {
        current.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      }
    }
    return entries;
  }

  /** Each entry's modify timestamp and CSN under the base: what a write would change. */
  static Map<String, String> stamps(SlapdServer slapd, String base) throws IOException {
    Map<String, String> stamps = new TreeMap<>();
    search(slapd, base, "(objectClass=*)", "modifyTimestamp", "entryCSN")
        .forEach((dn, a) -> stamps.put(dn, a.get("modifytimestamp") + " " + a.get("entrycsn")));
    return stamps;
  }
}
