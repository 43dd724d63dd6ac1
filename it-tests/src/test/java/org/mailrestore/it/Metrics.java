package org.mailrestore.it;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads figures out of a Prometheus text page, as a scraper would. */
final class Metrics {

  private Metrics() {}

  /** The sum of every series of a metric (0 when it is absent). */
  static double sum(String page, String name) {
    double total = 0;
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$")
            .matcher(page);
    while (m.find()) {
      total += Double.parseDouble(m.group(2));
    }
    return total;
  }
}
