package io.eventide.engine;

/**
 * Receives the keys whose state changed since the last drain (see {@link
 * EventTimeEngine#drainChanges}), to write them to a durable store. Feeding every blob back through
 * {@link EventTimeEngine#restoreKey} rebuilds an engine that goes on exactly as this one would.
 */
public interface KeyStateChanges {
  /** {@code state} is the key's whole encoded state; owned by the receiver. */
  void changed(String key, byte[] state);

  /**
   * As {@link #changed}, for a key the durable store does not hold yet: neither restored nor
   * reported since its last removal. A store that keeps an index of its keys adds it there.
   */
  default void added(String key, byte[] state) {
    changed(key, state);
  }

  /** The key has no open windows any more: its stored state is to be deleted. */
  void removed(String key);
}
