package org.mailrestore.restore.run;

import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.MDC;

/**
 * Runs tasks with the log context (MDC) of the thread that submitted them, so every log line of an
 * operation's accounts, clusters and blob copies carries the operation and account it is about.
 */
public final class LogContextExecutor extends AbstractExecutorService {

  private final ExecutorService delegate;

  public LogContextExecutor(ExecutorService delegate) {
    this.delegate = delegate;
  }

  @Override
  public void execute(Runnable task) {
    Map<String, String> context = MDC.getCopyOfContextMap();
    delegate.execute(() -> {
      if (Thread.currentThread().isVirtual()) {
        // A virtual thread runs this one task and ends: nothing of its own to put back. (Once per
        // blob copy, the two copies of the context saved here were a measurable part of the CPU.)
        set(context);
        task.run();
        return;
      }
      Map<String, String> previous = MDC.getCopyOfContextMap();
      set(context);
      try {
        task.run();
      } finally {
        set(previous);
      }
    });
  }

  private static void set(Map<String, String> context) {
    if (context == null) {
      MDC.clear();
    } else {
      MDC.setContextMap(context);
    }
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public List<Runnable> shutdownNow() {
    return delegate.shutdownNow();
  }

  @Override
  public boolean isShutdown() {
    return delegate.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return delegate.isTerminated();
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return delegate.awaitTermination(timeout, unit);
  }
}
