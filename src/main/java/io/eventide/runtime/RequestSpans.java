package io.eventide.runtime;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The traced requests whose events or watermarks one commit applies, each named by its span as a
 * W3C {@code traceparent} (docs/operations.md#tracing): the commit's span is a child of the first
 * and links to the others. Only sampled requests are named, since an unsampled one gets no span of
 * its commit. A run of an ingest log partition (cluster mode) may hold records of thousands of
 * requests: at most {@link #MAX} are named, the first in log order.
 */
public final class RequestSpans {
  /** A parent and 128 links, OpenTelemetry's default limit on the links of a span. */
  public static final int MAX = 129;

  /** A commit that applies no traced request (or tracing is off): it has no span. */
  public static final RequestSpans NONE = new RequestSpans(List.of(), false);

  private final List<String> spans;
  private final boolean truncated;

  private RequestSpans(List<String> spans, boolean truncated) {
    this.spans = spans;
    this.truncated = truncated;
  }

  /** The one request of a commit, {@code traceparent} its span, or {@link #NONE} when null. */
  public static RequestSpans of(String traceparent) {
    return traceparent == null ? NONE : new RequestSpans(List.of(traceparent), false);
  }

  public boolean isEmpty() {
    return spans.isEmpty();
  }

  /** The span the commit's span is a child of. */
  public String parent() {
    return spans.get(0);
  }

  /** The spans the commit's span links to: every request named but the first. */
  public List<String> links() {
    return spans.subList(1, spans.size());
  }

  /** How many requests are named: the parent and the links. */
  public int size() {
    return spans.size();
  }

  /** Whether the commit applied more traced requests than {@link #MAX}, which are not named. */
  public boolean truncated() {
    return truncated;
  }

  /**
   * Gathers the spans of a run of records, each once, in order. Builds nothing until a record names
   * a span: with tracing off none does.
   */
  static final class Gatherer {
    private Set<String> seen;
    private boolean truncated;

    /** The span of the next record's request; null when it is not traced. */
    void add(String traceparent) {
      if (traceparent == null) {
        return;
      }
      if (seen == null) {
        seen = new LinkedHashSet<>();
      }
      if (seen.size() < MAX) {
        seen.add(traceparent);
      } else if (!seen.contains(traceparent)) {
        truncated = true;
      }
    }

    /** What was gathered since the last call; starts again empty. */
    RequestSpans take() {
      if (seen == null) {
        return NONE;
      }
      RequestSpans spans = new RequestSpans(new ArrayList<>(seen), truncated);
      seen = null;
      truncated = false;
      return spans;
    }
  }
}
