package io.eventide.runtime;

/**
 * Makes the span of a commit that applies traced requests (docs/operations.md#tracing). {@link
 * #OFF} when tracing is off here: a commit then has no span, even of records another replica logged
 * with tracing on.
 */
public interface CommitTracer {
  CommitTracer OFF = (pipeline, partition, requests) -> CommitSpan.NONE;

  /**
   * Starts the span of a commit of {@code pipeline}, a child of the first of {@code requests} and
   * linked to the others.
   *
   * @param partition the partition the commit is of (cluster mode), else -1
   */
  CommitSpan start(String pipeline, int partition, RequestSpans requests);

  /** A commit's span, started. */
  interface CommitSpan {
    /** No span: the commit's pane log entries carry none. */
    CommitSpan NONE =
        new CommitSpan() {
          @Override
          public String traceparent() {
            return null;
          }

          @Override
          public void end(int events, int panes, Throwable error) {}
        };

    /**
     * The span as a W3C {@code traceparent}, which the commit's pane log entries carry; or null.
     */
    String traceparent();

    /**
     * Ends the span with what the commit did.
     *
     * @param events how many events the commit applied
     * @param panes how many panes it logged
     * @param error why it failed, or null once it landed
     */
    void end(int events, int panes, Throwable error);
  }
}
