package org.mailrestore.mail;

/**
 * A backup file read into a value, or the reason it could not be.
 *
 * @param <T> what the file describes
 */
public sealed interface Parsed<T> {

  /** Where in the backup the value came from (a path relative to the backup root). */
  String location();

  record Ok<T>(T value, String location) implements Parsed<T> {}

  record Failed<T>(String location, String reason) implements Parsed<T> {}
}
