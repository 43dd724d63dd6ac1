package org.mailrestore.kind;

/**
 * Something installed by a line in {@code META-INF/services}: a source kind, a target kind, an
 * export format. The CLI, the REST API and the OpenAPI document follow from the kinds installed.
 */
public interface Kind {

  /** The kind's name, as requests and the CLI give it. */
  String name();

  /** One line for the CLI's help and the API document. */
  String description();
}
