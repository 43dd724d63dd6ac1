package org.mailrestore.mail;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/** Who a grant is for, with Zimbra's short names as the wire form. */
public enum GranteeType {
  USER("usr"),
  GROUP("grp"),
  DOMAIN("dom"),
  ALL_AUTHENTICATED("all"),
  PUBLIC("pub"),
  GUEST("guest");

  private final String wireName;

  GranteeType(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** True when the grantee is an account whose id must be remapped on restore. */
  public boolean isAccount() {
    return this == USER;
  }

  @JsonCreator
  public static GranteeType fromWireName(String name) {
    return Arrays.stream(values())
        .filter(t -> t.wireName.equals(name))
        .findFirst()
        .orElseThrow(() ->
            new IllegalArgumentException(
                "unknown grantee type '" + name + "' (expected usr, grp, dom, all, pub, guest)"));
  }
}
