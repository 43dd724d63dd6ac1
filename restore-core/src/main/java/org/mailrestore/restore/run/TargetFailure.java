package org.mailrestore.restore.run;

import java.io.IOException;
import java.sql.SQLException;

/**
 * The target failed in a way no retry of the engine cures (a server gone after its own retries, a
 * volume that refuses writes): the account fails with the target's words, the rest goes on. Kept
 * apart from the source's {@link IOException}s, which fail the account as unreadable.
 */
public final class TargetFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public TargetFailure(IOException cause) {
    super(cause.getMessage(), cause);
  }

  /** A target call. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws SQLException, IOException;
  }

  /** A target call that answers nothing. */
  @FunctionalInterface
  public interface Step {
    void run() throws SQLException, IOException;
  }

  /** {@link #call} for a step that answers nothing. */
  public static void run(Step step) throws SQLException {
    try {
      step.run();
    } catch (IOException e) {
      throw new TargetFailure(e);
    }
  }

  /** Runs a target call; its {@link IOException} becomes a {@link TargetFailure}. */
  public static <T> T call(Call<T> call) throws SQLException {
    try {
      return call.run();
    } catch (IOException e) {
      throw new TargetFailure(e);
    }
  }
}
