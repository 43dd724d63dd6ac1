package org.mailrestore.source;

/**
 * Something of a backup's source that could not be read, for the failure list.
 *
 * @param location where it is (a path relative to the source), for a person to find it
 * @param detail why it could not be read
 */
public record SourceProblem(String location, String detail) {}
