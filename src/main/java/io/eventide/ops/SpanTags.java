package io.eventide.ops;

/** The attributes of Eventide's spans (docs/operations.md#tracing). */
public final class SpanTags {
  /** The pipeline posted to, or whose commit it is. */
  public static final String PIPELINE = "eventide.pipeline";

  /** The stream posted to. */
  public static final String STREAM = "eventide.stream";

  /** What was posted: {@code events} or {@code watermark}. */
  public static final String INPUT = "eventide.input";

  /** Events in the body of a post, or events a commit applied. */
  public static final String EVENTS = "eventide.events";

  /** How a post was answered, or how a commit ended. */
  public static final String OUTCOME = "eventide.outcome";

  /** The HTTP status a post was answered with. */
  public static final String STATUS = "http.response.status_code";

  /** Panes a commit logged. */
  static final String PANES = "eventide.panes";

  /** Traced requests a commit applied: its parent's and its links'. */
  static final String REQUESTS = "eventide.requests";

  /** Whether a commit applied more traced requests than its span names. */
  static final String REQUESTS_TRUNCATED = "eventide.requests.truncated";

  /** The partition a commit is of, in cluster mode. */
  static final String PARTITION = "eventide.partition";

  private SpanTags() {}
}
