package org.mailrestore.ldap;

import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the directory's own schema has room for: the attributes an entry of some object classes may
 * hold, by their schema names. Read from the server (its subschema entry), so a Zimbra directory
 * with Zimbra's whole schema takes every attribute it knows, and a plain OpenLDAP takes what
 * inetOrgPerson allows.
 */
final class SchemaRoom {

  private final Schema schema;
  private final Map<List<String>, Set<String>> allowed = new HashMap<>();

  SchemaRoom(Schema schema) {
    this.schema = schema;
  }

  boolean hasClass(String name) {
    return schema.getObjectClass(name) != null;
  }

  /** The schema's name for an attribute (its first name), if the schema knows it. */
  Optional<String> canonical(String attribute) {
    AttributeTypeDefinition type = schema.getAttributeType(attribute);
    return type == null ? Optional.empty() : Optional.of(type.getNameOrOID());
  }

  /** Whether entries of these classes may hold the attribute. */
  synchronized boolean allows(List<String> classes, String attribute) {
    Set<String> names =
        allowed.computeIfAbsent(
            List.copyOf(classes),
            k -> {
              Set<String> all = new HashSet<>();
              for (String c : k) {
                ObjectClassDefinition oc = schema.getObjectClass(c);
                if (oc == null) {
                  continue;
                }
                for (AttributeTypeDefinition a : oc.getRequiredAttributes(schema, true)) {
                  addNames(all, a);
                }
                for (AttributeTypeDefinition a : oc.getOptionalAttributes(schema, true)) {
                  addNames(all, a);
                }
              }
              return all;
            });
    return names.contains(attribute.toLowerCase(Locale.ROOT));
  }

  private static void addNames(Set<String> all, AttributeTypeDefinition a) {
    all.add(a.getOID().toLowerCase(Locale.ROOT));
    for (String n : a.getNames()) {
      all.add(n.toLowerCase(Locale.ROOT));
    }
  }
}
