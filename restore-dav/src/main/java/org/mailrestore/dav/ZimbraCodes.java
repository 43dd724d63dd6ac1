package org.mailrestore.dav;

import java.util.Map;

/**
 * Zimbra's short codes for iCalendar values in an invite's metadata ({@code IcalXmlStrMap}) and an
 * alarm's ({@code Alarm}), and the iCalendar names they stand for.
 */
final class ZimbraCodes {

  private ZimbraCodes() {}

  static final Map<String, String> STATUS =
      Map.of(
          "TENT", "TENTATIVE",
          "CONF", "CONFIRMED",
          "CANC", "CANCELLED",
          "NEED", "NEEDS-ACTION",
          "COMP", "COMPLETED",
          "INPR", "IN-PROCESS",
          "WAITING", "IN-PROCESS",
          "DEFERRED", "NEEDS-ACTION");
  static final Map<String, String> PARTSTAT =
      Map.of(
          "AC", "ACCEPTED",
          "DE", "DECLINED",
          "TE", "TENTATIVE",
          "NE", "NEEDS-ACTION",
          "DG", "DELEGATED",
          "CO", "COMPLETED",
          "IN", "IN-PROCESS",
          "WA", "X-ZIMBRA-PARTSTAT-WAITING",
          "DF", "X-ZIMBRA-PARTSTAT-DEFERRED");
  static final Map<String, String> ROLE =
      Map.of(
          "CHA", "CHAIR",
          "REQ", "REQ-PARTICIPANT",
          "OPT", "OPT-PARTICIPANT",
          "NON", "NON-PARTICIPANT");
  static final Map<String, String> CUTYPE =
      Map.of(
          "IND", "INDIVIDUAL", "GRO", "GROUP", "RES", "RESOURCE", "ROO", "ROOM", "UNK", "UNKNOWN");
  static final Map<String, String> CLASS =
      Map.of("PUB", "PUBLIC", "PRI", "PRIVATE", "CON", "CONFIDENTIAL");
  static final Map<String, String> ACTION = Map.of("d", "DISPLAY", "a", "AUDIO", "e", "EMAIL");
}
