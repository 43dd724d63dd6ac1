package org.mailrestore.cli;

/** What the CLI's exit codes mean, for scripts. */
final class ExitCodes {
  /** Done: everything restored, or no difference found. */
  static final int OK = 0;

  /** Done, but something was not restored or differs (see the failure list). */
  static final int PARTIAL = 1;

  /** The command line was wrong. */
  static final int USAGE = 2;

  /** The command could not do its job (unreadable backup, unreachable database...). */
  static final int FAILED = 3;

  /** The service could not be reached. */
  static final int UNREACHABLE = 4;

  /** The service refused the credentials, or the role does not allow the call. */
  static final int DENIED = 5;

  /** No such operation. */
  static final int NOT_FOUND = 6;

  /** The operation is not in a state that allows the call (cancel an ended one...). */
  static final int CONFLICT = 7;

  /** {@code status} of an operation that has not ended (queued, running, paused). */
  static final int NOT_ENDED = 8;

  private ExitCodes() {}
}
