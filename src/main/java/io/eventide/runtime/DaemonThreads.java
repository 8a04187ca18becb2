package io.eventide.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for Eventide's own pools, named so a thread dump says whose they are, and daemons so that
 * none keeps a stopping JVM alive: each pool is shut down by its owner's lifecycle.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Threads named {@code prefix-1}, {@code prefix-2}, … */
  public static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
