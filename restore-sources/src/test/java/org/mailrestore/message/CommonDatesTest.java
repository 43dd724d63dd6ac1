package org.mailrestore.message;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-read usual shape gives the general parse's result, or leaves the value to it. */
class CommonDatesTest {

  private static void sameAsGeneral(String value) {
    Long common = CommonDates.parse(value);
    if (common != null) {
      assertThat(common).as(value).isEqualTo(MessageHeaders.generalDate(value));
    }
  }

  @Test
  void theUsualShapesAreReadByHand() {
    long expected = Instant.parse("2001-05-14T23:39:00Z").toEpochMilli();
    for (String v :
        List.of(
            "Mon, 14 May 2001 16:39:00 -0700 (PDT)",
            "Mon, 14 May 2001 16:39:00 -0700",
            "14 May 2001 16:39:00 -0700",
            "Mon,  14 May 2001 16:39 -0700 (PDT) ",
            "  Tue, 15 May 2001 01:39:00 +0200")) {
      assertThat(CommonDates.parse(v)).as(v).isEqualTo(expected);
      assertThat(MessageHeaders.parseDate(v)).as(v).isEqualTo(expected);
      sameAsGeneral(v);
    }
  }

  @Test
  void otherShapesAndInvalidDatesAreLeftToTheGeneralParse() {
    for (String v :
        List.of(
            "Mon, 14 May 2001 16:39:00 GMT",
            "Sun, 14 May 2001 16:39:00 GMT",
            "Mon, 14 May 01 16:39:00 -0700",
            "Mon, 14 may 2001 16:39:00 -0700",
            "Mon, 31 Feb 2001 16:39:00 -0700",
            "Mon, 14 May 2001 24:00:00 -0700",
            "Mon, 14 May 2001 16:39:60 -0700",
            "Mon, 14 May 2001 16:39:00 -0700 trailing",
            "Mon, 14 May 2001 16:39:00 -0700 (a (nested) comment)",
            "14 May 2001 16:39:00 -0700 (PDT, summer)",
            "Mon, 14 May 2001 16:39:00 +1900",
            "Mon, 14 May 0000 16:39:00 -0700",
            "Mon, 014 May 2001 16:39:00 -0700",
            "Mon,\t14 May 2001 16:39:00 -0700",
            "")) {
      assertThat(CommonDates.parse(v)).as(v).isNull();
      sameAsGeneral(v);
    }
  }

  @Test
  void randomDatesInEveryOffsetAgreeWithTheFormatters() {
    Random random = new Random(42);
    DateTimeFormatter withDay =
        DateTimeFormatter.ofPattern("EEE, d MMM yyyy HH:mm:ss Z", Locale.ROOT);
    DateTimeFormatter noSeconds = DateTimeFormatter.ofPattern("d MMM yyyy H:mm Z", Locale.ROOT);
    for (int i = 0; i < 20_000; i++) {
      long second = random.nextLong(-2_000_000_000L, 8_000_000_000L);
      ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-14 * 60, 14 * 60 + 1) * 60);
      ZonedDateTime t = Instant.ofEpochSecond(second).atZone(offset);
      String v = (i % 2 == 0 ? withDay : noSeconds).format(t) + (i % 3 == 0 ? " (zone)" : "");
      Long common = CommonDates.parse(v);
      assertThat(common).as(v).isNotNull();
      assertThat(common).as(v).isEqualTo(MessageHeaders.generalDate(v));
    }
  }
}
