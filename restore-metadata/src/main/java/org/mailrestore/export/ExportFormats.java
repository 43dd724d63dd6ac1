package org.mailrestore.export;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The export formats installed (found with {@link ServiceLoader}). */
public final class ExportFormats {

  private static final ExportFormats INSTALLED = load();

  private final List<ExportFormat> formats;

  private ExportFormats(List<ExportFormat> formats) {
    this.formats = formats.stream().sorted(Comparator.comparing(ExportFormat::name)).toList();
  }

  private static ExportFormats load() {
    List<ExportFormat> found = new ArrayList<>();
    ServiceLoader.load(ExportFormat.class, ExportFormats.class.getClassLoader())
        .forEach(found::add);
    return new ExportFormats(found);
  }

  public static ExportFormats installed() {
    return INSTALLED;
  }

  public List<ExportFormat> all() {
    return formats;
  }

  public Optional<ExportFormat> find(String name) {
    return formats.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /**
   * @throws IllegalArgumentException when no such format is installed
   */
  public ExportFormat require(String name) {
    return find(name)
        .orElseThrow(() ->
            new IllegalArgumentException(
                "\""
                    + name
                    + "\" is not an export format (known: "
                    + String.join(", ", formats.stream().map(ExportFormat::name).toList())
                    + ")"));
  }
}
