package org.mailrestore.source;

/**
 * Something of a source that is not restored, for the failure list.
 *
 * @param location where it is (a path relative to the source), for a person to find it
 * @param detail why it could not be read, or what was left out
 * @param notCarried true for what the source holds but the restore deliberately leaves out (a kind
 *     of item our model has no place for): a warning, not an error
 */
public record SourceProblem(String location, String detail, boolean notCarried) {

  /** Something that could not be read: an error. */
  public SourceProblem(String location, String detail) {
    this(location, detail, false);
  }

  /** Something the restore leaves out on purpose: a warning. */
  public static SourceProblem notCarried(String location, String detail) {
    return new SourceProblem(location, detail, true);
  }
}
