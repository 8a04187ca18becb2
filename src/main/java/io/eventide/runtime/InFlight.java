package io.eventide.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * The requests working on one runtime. A reset or delete closes it and waits until they are done,
 * so that each request is applied whole to the generation it started on: none is cut in half by a
 * reset, and none sees its state vanish under it.
 */
final class InFlight {
  private final CompletableFuture<Void> drained = new CompletableFuture<>();
  private int count;
  private boolean closed;

  /**
   * @return false once closed: the caller must find the runtime that replaces this one
   */
  synchronized boolean enter() {
    if (closed) {
      return false;
    }
    count++;
    return true;
  }

  synchronized void exit() {
    if (--count == 0 && closed) {
      drained.complete(null);
    }
  }

  /** Lets no more requests in; completes once the last one has left. */
  synchronized CompletableFuture<Void> close() {
    closed = true;
    if (count == 0) {
      drained.complete(null);
    }
    return drained;
  }
}
