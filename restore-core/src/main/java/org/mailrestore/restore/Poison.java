package org.mailrestore.restore;

/** Errors no retry can cure, told in a form fit for an operation's message and its failures. */
final class Poison {

  private static final int MAX_MESSAGE = 500;

  private Poison() {}

  /** The error's class and message, bounded (a message may quote a long value). */
  static String describe(Throwable e) {
    String message = e.getMessage();
    String text =
        e.getClass().getSimpleName()
            + (message == null || message.isBlank() ? "" : ": " + message.strip());
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "...";
  }

  /** Whether an Error (the JVM failing, not the restore) is among the causes. */
  static boolean isCrash(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof Error) {
        return true;
      }
    }
    return false;
  }
}
