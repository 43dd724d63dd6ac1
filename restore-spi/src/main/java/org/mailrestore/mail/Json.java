package org.mailrestore.mail;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The project's JSON mapping: backup files, and attribute maps stored as JSON text. */
public final class Json {

  /** Unknown fields are ignored: minor versions of the format may add optional fields. */
  public static final JsonMapper MAPPER =
      JsonMapper.builder()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .changeDefaultPropertyInclusion(
              incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
          .build();

  /** For files people read: indented. */
  public static final JsonMapper PRETTY =
      MAPPER.rebuild().enable(SerializationFeature.INDENT_OUTPUT).build();

  private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP =
      new TypeReference<>() {};

  private Json() {}

  /** A map of strings as compact JSON, or null for an empty map. */
  public static String fromMap(Map<String, String> map) {
    return map == null || map.isEmpty() ? null : MAPPER.writeValueAsString(map);
  }

  /** The map a {@link #fromMap} string holds; empty for null. */
  public static Map<String, String> toMap(String json) {
    return json == null || json.isEmpty() ? Map.of() : MAPPER.readValue(json, STRING_MAP);
  }

  /**
   * What is wrong with a JSON text, without quoting any of it (a file's contents are not shown in
   * errors, whoever reads them): the kind of fault, where, and the field.
   */
  public static String describe(JacksonException e) {
    TokenStreamLocation at = e.getLocation();
    String where =
        at == null || at.getLineNr() < 0
            ? ""
            : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    String field = fieldPath(e);
    String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    String kind;
    if (e instanceof tools.jackson.core.exc.StreamConstraintsException) {
      kind = "a value beyond the length or nesting allowed";
    } else if (e instanceof tools.jackson.core.exc.InputCoercionException) {
      kind = "a number out of range";
    } else if (original.contains("UTF-8") || original.contains("UTF8")) {
      kind = "not valid UTF-8";
    } else if (e instanceof tools.jackson.core.exc.StreamReadException
        && !(e instanceof tools.jackson.databind.DatabindException)) {
      kind = "not valid JSON";
    } else {
      kind = "a value of the wrong form";
    }
    return kind + where + (field.isEmpty() ? "" : " (field " + field + ")");
  }

  /** The field an error is about, as a person writes it: {@code source.options}, {@code a[0]}. */
  public static String fieldPath(JacksonException e) {
    StringBuilder field = new StringBuilder();
    for (JacksonException.Reference ref : e.getPath()) {
      if (ref.getPropertyName() != null) {
        field.append(field.isEmpty() ? "" : ".").append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        field.append('[').append(ref.getIndex()).append(']');
      }
    }
    return field.toString();
  }
}
