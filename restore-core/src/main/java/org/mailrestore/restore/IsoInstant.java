package org.mailrestore.restore;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;

/**
 * An instant as an ISO-8601 string only ({@code 2026-01-31T00:00:00Z}): a bare number is refused,
 * as {@code 1e300} would otherwise be read as seconds and quietly become 1970.
 */
public final class IsoInstant extends StdDeserializer<Instant> {

  public IsoInstant() {
    super(Instant.class);
  }

  @Override
  public Instant deserialize(JsonParser p, DeserializationContext ctxt) {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      return (Instant)
          ctxt.handleUnexpectedToken(
              ctxt.constructType(Instant.class),
              p.currentToken(),
              p,
              "must be an ISO-8601 instant as a string, such as \"2026-01-31T00:00:00Z\"");
    }
    try {
      return Instant.parse(p.getString());
    } catch (DateTimeParseException e) {
      return (Instant)
          ctxt.handleWeirdStringValue(
              Instant.class,
              p.getString(),
              "must be an ISO-8601 instant, such as \"2026-01-31T00:00:00Z\"");
    }
  }
}
