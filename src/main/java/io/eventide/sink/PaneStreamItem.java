package io.eventide.sink;

/** What a pane subscription delivers: panes, and at most one overflow notice at the end. */
public sealed interface PaneStreamItem permits PaneEvent, PaneStreamItem.Overflow {

  /** The subscriber fell more than its buffer behind and is being disconnected. */
  record Overflow(int bufferSize, String lastDeliveredId) implements PaneStreamItem {}
}
