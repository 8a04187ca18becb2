package io.eventide.api;

import io.eventide.ops.SpanTags;
import io.eventide.ops.TraceParent;
import io.micrometer.tracing.Span;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;

/**
 * The ingest span of one post ({@link IngestSpans}), as its controller sees it: what its batches
 * carry to their commits, and how many events it held. {@link #NONE} when tracing is off.
 */
final class IngestSpan {
  /** A post that is not traced: it carries no span and counts nothing. */
  static final IngestSpan NONE = new IngestSpan(null, false);

  private static final String ATTRIBUTE = IngestSpan.class.getName();

  private final Span span;
  private final String traceparent;
  private final boolean ofEvents;
  private final AtomicInteger events = new AtomicInteger();

  /**
   * @param ofEvents whether the post is one of events, whose span says how many; else a watermark
   */
  IngestSpan(Span span, boolean ofEvents) {
    this.span = span;
    this.ofEvents = ofEvents;
    this.traceparent = span == null ? null : TraceParent.sampled(span.context());
  }

  /** The post's span, or {@link #NONE}. */
  static IngestSpan of(ServerWebExchange exchange) {
    IngestSpan span = exchange.getAttribute(ATTRIBUTE);
    return span == null ? NONE : span;
  }

  void attachTo(ServerWebExchange exchange) {
    exchange.getAttributes().put(ATTRIBUTE, this);
  }

  /**
   * The span as a W3C {@code traceparent} for the post's batches, whose commits' spans are its
   * children; null when it is not sampled, or for {@link #NONE}.
   */
  String traceparent() {
    return traceparent;
  }

  /** The post's body held {@code n} more events. */
  void counted(int n) {
    if (span != null) {
      events.addAndGet(n);
    }
  }

  /** Ends the span with the post's answer; a null status: the client went away first. */
  void end(HttpStatusCode status) {
    if (ofEvents) {
      span.tag(SpanTags.EVENTS, events.get());
    }
    if (status == null) {
      span.tag(SpanTags.OUTCOME, "cancelled");
    } else {
      span.tag(SpanTags.STATUS, status.value())
          .tag(
              SpanTags.OUTCOME,
              status.is2xxSuccessful()
                  ? "accepted"
                  : status.is4xxClientError() ? "refused" : "failed");
    }
    span.end();
  }
}
