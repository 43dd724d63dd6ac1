package org.mailrestore.dav;

import static org.mailrestore.dav.IcalLines.escape;
import static org.mailrestore.dav.ZimbraValues.asMap;
import static org.mailrestore.dav.ZimbraValues.map;
import static org.mailrestore.dav.ZimbraValues.number;
import static org.mailrestore.dav.ZimbraValues.str;
import static org.mailrestore.dav.ZimbraValues.truth;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The time zones an item's invites name, as Zimbra keeps them ({@code tzm}, per item and per
 * invite), and the {@code VTIMEZONE}s of those its dates use.
 */
final class InviteZones {

  private final Map<String, Map<String, Object>> zones;
  private final Set<String> used = new LinkedHashSet<>();

  private InviteZones(Map<String, Map<String, Object>> zones) {
    this.zones = zones;
  }

  /** The zones of an item's metadata and of each of its invites. */
  static InviteZones of(Map<String, Object> meta, List<Map<String, Object>> invites) {
    Map<String, Map<String, Object>> zones = new LinkedHashMap<>();
    addZones(zones, map(meta, "tzm"));
    for (Map<String, Object> inv : invites) {
      addZones(zones, map(inv, "tzm"));
    }
    return new InviteZones(zones);
  }

  /** Whether the metadata describes this zone; if so, its {@code VTIMEZONE} will be written. */
  boolean use(String tzid) {
    if (!zones.containsKey(tzid)) {
      return false;
    }
    used.add(tzid);
    return true;
  }

  /** The {@code VTIMEZONE} of each zone used. */
  void writeUsed(List<String> out) {
    for (String tzid : used) {
      timezone(tzid, zones.get(tzid), out);
    }
  }

  /**
   * A time zone of the metadata ({@code ICalTimeZone}: offsets in milliseconds, and each change's
   * first date and yearly rule) as a {@code VTIMEZONE}.
   */
  private static void timezone(String tzid, Map<String, Object> tz, List<String> out) {
    long standard = number(tz, "so", 0);
    long daylight = number(tz, "do", standard);
    boolean hasDaylight = truth(str(tz, "hd")) && daylight != standard;
    out.add("BEGIN:VTIMEZONE");
    out.add("TZID:" + escape(tzid));
    out.add("BEGIN:STANDARD");
    out.add("DTSTART:" + orDefault(str(tz, "d2ss")));
    out.add("TZOFFSETFROM:" + offset(hasDaylight ? daylight : standard));
    out.add("TZOFFSETTO:" + offset(standard));
    if (hasDaylight && str(tz, "d2sr") != null) {
      out.add("RRULE:" + str(tz, "d2sr"));
    }
    out.add("END:STANDARD");
    if (hasDaylight) {
      out.add("BEGIN:DAYLIGHT");
      out.add("DTSTART:" + orDefault(str(tz, "s2ds")));
      out.add("TZOFFSETFROM:" + offset(standard));
      out.add("TZOFFSETTO:" + offset(daylight));
      if (str(tz, "s2dr") != null) {
        out.add("RRULE:" + str(tz, "s2dr"));
      }
      out.add("END:DAYLIGHT");
    }
    out.add("END:VTIMEZONE");
  }

  private static String orDefault(String dtstart) {
    return dtstart != null && InviteCalendar.DATE.matcher(dtstart).matches()
        ? dtstart
        : "16010101T000000";
  }

  private static String offset(long millis) {
    long minutes = Math.abs(millis) / 60_000;
    return String.format(
        Locale.ROOT, "%s%02d%02d", millis < 0 ? "-" : "+", minutes / 60, minutes % 60);
  }

  /** The metadata's time zones by id, and by each alias Zimbra keeps for one. */
  private static void addZones(Map<String, Map<String, Object>> into, Map<String, Object> tzm) {
    if (tzm == null) {
      return;
    }
    for (Map.Entry<String, Object> e : tzm.entrySet()) {
      if (e.getKey().startsWith("#") && e.getValue() instanceof Map<?, ?>) {
        Map<String, Object> tz = asMap(e.getValue());
        String id = str(tz, "tzid");
        if (id != null) {
          into.putIfAbsent(id, tz);
        }
      }
    }
    for (Map.Entry<String, Object> e : tzm.entrySet()) {
      if (!e.getKey().startsWith("#") && tzm.get("#" + e.getValue()) instanceof Map<?, ?> m) {
        into.putIfAbsent(e.getKey(), asMap(m));
      }
    }
  }
}
