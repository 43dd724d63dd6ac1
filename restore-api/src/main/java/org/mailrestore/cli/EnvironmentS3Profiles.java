package org.mailrestore.cli;

import java.net.URI;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.mailrestore.blob.s3.S3Settings;

/**
 * S3 profiles from the environment, for the command line. The profile {@code default} reads {@code
 * MAILRESTORE_S3_ENDPOINT}, {@code _REGION}, {@code _ACCESS_KEY}, {@code _SECRET_KEY}; a profile
 * {@code NAME} reads {@code MAILRESTORE_S3_NAME_ENDPOINT} and so on. Without keys, the AWS default
 * credential chain applies. Credentials never appear on command lines.
 */
final class EnvironmentS3Profiles {

  private static final String PREFIX = "MAILRESTORE_S3_";
  private static final String[] FIELDS = {"ENDPOINT", "REGION", "ACCESS_KEY", "SECRET_KEY"};

  private EnvironmentS3Profiles() {}

  static Map<String, S3Settings> read(Map<String, String> env) {
    Map<String, Map<String, String>> byProfile = new HashMap<>();
    byProfile.put("default", new HashMap<>());
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (!e.getKey().startsWith(PREFIX)) {
        continue;
      }
      String rest = e.getKey().substring(PREFIX.length());
      for (String field : FIELDS) {
        if (rest.equals(field)) {
          byProfile.get("default").put(field, e.getValue());
        } else if (rest.endsWith("_" + field)) {
          String profile =
              rest.substring(0, rest.length() - field.length() - 1).toLowerCase(Locale.ROOT);
          byProfile.computeIfAbsent(profile, k -> new HashMap<>()).put(field, e.getValue());
        }
      }
    }
    Map<String, S3Settings> profiles = new HashMap<>();
    byProfile.forEach((name, f) -> {
      String endpoint = f.get("ENDPOINT");
      profiles.put(
          name,
          S3Settings.of(
              endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
              f.get("REGION"),
              blankToNull(f.get("ACCESS_KEY")),
              blankToNull(f.get("SECRET_KEY"))));
    });
    return profiles;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
