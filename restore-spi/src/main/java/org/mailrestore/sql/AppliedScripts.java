package org.mailrestore.sql;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Whether a set's history already holds every one of its scripts, applied successfully, and nothing
 * newer: then there is nothing for Flyway to do. Anything else (no history yet, a failed or missing
 * script, a database newer than these scripts, scripts this class cannot list) is left to Flyway,
 * which applies, reports or refuses as before.
 *
 * <p>What this skips is Flyway's validation of scripts already applied (their checksums), which
 * guards against a released script being edited; Flyway still validates every time it runs.
 */
final class AppliedScripts {

  /** Flyway's versioned scripts: {@code V<version>__<description>.sql}. */
  private static final Pattern SCRIPT = Pattern.compile("V([0-9][0-9._]*)__[^/]*\\.sql");

  private AppliedScripts() {}

  static boolean upToDate(DataSource dataSource, String location, String historyTable)
      throws SQLException, IOException {
    Set<String> bundled = bundledVersions(location, AppliedScripts.class.getClassLoader());
    if (bundled.isEmpty()) {
      return false;
    }
    Set<String> applied = new HashSet<>();
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      if (!historyExists(c, historyTable)) {
        return false;
      }
      try (ResultSet rs = st.executeQuery("SELECT version, success, type FROM " + historyTable)) {
        while (rs.next()) {
          String version = rs.getString(1);
          if (!rs.getBoolean(2)) {
            return false;
          }
          if (version != null && rs.getString(3).startsWith("SQL")) {
            applied.add(version);
          }
        }
      }
    }
    return applied.equals(bundled);
  }

  private static boolean historyExists(Connection c, String historyTable) throws SQLException {
    // The name is a LIKE pattern there ('_' matches any character): the match is checked.
    try (ResultSet rs =
        c.getMetaData().getTables(c.getCatalog(), null, historyTable, new String[] {"TABLE"})) {
      while (rs.next()) {
        if (historyTable.equals(rs.getString("TABLE_NAME"))) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The versions of the scripts under a {@code classpath:} location, from a directory or a jar;
   * empty when they cannot be listed this way.
   */
  static Set<String> bundledVersions(String location, ClassLoader loader) throws IOException {
    String prefix = "classpath:";
    if (!location.startsWith(prefix)) {
      return Set.of();
    }
    String path = location.substring(prefix.length()).replaceAll("^/+|/+$", "");
    Set<String> versions = new HashSet<>();
    // Every directory or jar that holds the location, as Flyway scans them all.
    for (Enumeration<URL> urls = loader.getResources(path); urls.hasMoreElements(); ) {
      if (!addListed(versions, urls.nextElement(), path)) {
        return Set.of();
      }
    }
    return versions;
  }

  /** Adds the versions of the scripts at {@code url}; false when it cannot be listed. */
  private static boolean addListed(Set<String> versions, URL url, String path) throws IOException {
    if (url.getProtocol().equals("file")) {
      try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
        files.forEach(f -> add(versions, f.getFileName().toString()));
        return true;
      } catch (URISyntaxException e) {
        return false;
      }
    }
    if (url.openConnection() instanceof JarURLConnection connection) {
      // The class loader's own open jar, shared: not closed here.
      JarFile jar = connection.getJarFile();
      String dir = path + "/";
      for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (name.startsWith(dir) && name.indexOf('/', dir.length()) < 0) {
          add(versions, name.substring(dir.length()));
        }
      }
      return true;
    }
    return false;
  }

  private static void add(Set<String> versions, String fileName) {
    Matcher m = SCRIPT.matcher(fileName);
    if (m.matches()) {
      versions.add(m.group(1).replace('_', '.'));
    }
  }
}
