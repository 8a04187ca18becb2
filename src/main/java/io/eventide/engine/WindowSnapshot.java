package io.eventide.engine;

/**
 * An open window as it stands, for answering "why hasn't my window fired?".
 *
 * @param elementCount elements added to the window so far
 * @param pendingElements whether elements arrived since the last pane
 * @param nextPaneIndex the index the next pane will have
 * @param closed whether the trigger has finished (later elements are dropped as closed)
 * @param contents what the next pane would hold now (by name for named aggregates), null when
 *     closed
 * @param trigger the trigger's progress in words and numbers
 * @param endOfWindow the watermark must pass this for the window to be on time (its max timestamp)
 * @param gcTime when the watermark passes this the window is closed and its state deleted
 * @param finalAt the event time after which the window can no longer change, as its panes say it:
 *     the window is collected once the input watermark reaches it
 * @param watermark the input watermark now
 */
public record WindowSnapshot(
    String key,
    Window window,
    long elementCount,
    boolean pendingElements,
    int nextPaneIndex,
    boolean closed,
    Object contents,
    String trigger,
    long endOfWindow,
    long gcTime,
    long finalAt,
    long watermark) {}
