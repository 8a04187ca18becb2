package io.eventide.ops;

import io.eventide.runtime.CommitTracer;
import io.eventide.runtime.RequestSpans;
import io.eventide.state.UnreplicatedCommitException;
import io.micrometer.tracing.Link;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.springframework.context.annotation.Conditional;
import org.springframework.stereotype.Component;

/**
 * The span of a commit that applies traced requests (docs/operations.md#tracing): {@code
 * eventide.commit}, a child of the first request's span and linked to the others' (in cluster mode
 * one commit of a partition may apply records of many requests; in one process it applies one),
 * from the store's write until it answered.
 */
@Component
@Conditional(TracingEnabled.class)
final class CommitSpans implements CommitTracer {
  static final String NAME = "eventide.commit";

  private final Tracer tracer;

  CommitSpans(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  public CommitSpan start(String pipeline, int partition, RequestSpans requests) {
    Span.Builder span =
        tracer
            .spanBuilder()
            .name(NAME)
            .tag(SpanTags.PIPELINE, pipeline)
            .tag(SpanTags.REQUESTS, requests.size());
    TraceContext parent = TraceParent.context(tracer, requests.parent());
    if (parent == null) {
      span.setNoParent();
    } else {
      span.setParent(parent);
    }
    for (String request : requests.links()) {
      TraceContext link = TraceParent.context(tracer, request);
      if (link != null) {
        span.addLink(new Link(link));
      }
    }
    if (requests.truncated()) {
      span.tag(SpanTags.REQUESTS_TRUNCATED, true);
    }
    if (partition >= 0) {
      span.tag(SpanTags.PARTITION, partition);
    }
    return new Started(span.start());
  }

  private static final class Started implements CommitSpan {
    private final Span span;
    private final String traceparent;

    Started(Span span) {
      this.span = span;
      this.traceparent = TraceParent.sampled(span.context());
    }

    @Override
    public String traceparent() {
      return traceparent;
    }

    @Override
    public void end(int events, int panes, Throwable error) {
      span.tag(SpanTags.EVENTS, events).tag(SpanTags.PANES, panes);
      if (error == null) {
        span.tag(SpanTags.OUTCOME, "committed");
      } else if (error instanceof UnreplicatedCommitException) {
        span.tag(SpanTags.OUTCOME, "unreplicated");
      } else {
        span.tag(SpanTags.OUTCOME, "failed").error(error);
      }
      span.end();
    }
  }
}
