package org.mailrestore.mail;

import java.util.List;
import java.util.Map;

/**
 * An account as the backup describes it, from {@code accounts/<id>/account.json}.
 *
 * @param id the account's id on the source server; also its directory name in the backup
 * @param name the account's address, such as {@code alice@example.org}
 * @param system true for the server's own accounts (spam training, GAL sync, quarantine)
 */
public record Account(
    String id,
    String name,
    String domain,
    String cos,
    String status,
    boolean system,
    List<String> aliases,
    Map<String, String> attributes) {
  public Account {
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    status = status == null ? "active" : status;
  }

  /** An account known only by its address (an archive's, an mbox's): active, nothing else. */
  public static Account ofAddress(String address) {
    return new Account(
        address,
        address,
        address.substring(address.indexOf('@') + 1),
        null,
        "active",
        false,
        List.of(),
        Map.of());
  }

  /** The same account without aliases (when a restore adds none). */
  public Account withoutAliases() {
    return new Account(id, name, domain, cos, status, system, List.of(), attributes);
  }

  public Account withName(String newName) {
    String newDomain = newName.substring(newName.indexOf('@') + 1);
    return new Account(id, newName, newDomain, cos, status, system, aliases, attributes);
  }
}
