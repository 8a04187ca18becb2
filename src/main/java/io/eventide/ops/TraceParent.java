package io.eventide.ops;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;

/**
 * A span as W3C Trace Context writes it, {@code 00-<trace id>-<span id>-<flags>}: the form in which
 * a request's or a commit's span travels through the ingest log, the commit and the pane log
 * (docs/operations.md#tracing), whatever tracer made it.
 */
public final class TraceParent {
  private static final int LENGTH = 55;

  private TraceParent() {}

  /** The span's {@code traceparent} when it is sampled, else null: only sampled spans travel. */
  public static String sampled(TraceContext context) {
    if (!Boolean.TRUE.equals(context.sampled())) {
      return null;
    }
    return "00-" + context.traceId() + "-" + context.spanId() + "-01";
  }

  /** The span a {@code traceparent} names, as a remote parent or link; null when it is not one. */
  static TraceContext context(Tracer tracer, String traceparent) {
    if (!wellFormed(traceparent)) {
      return null;
    }
    return tracer
        .traceContextBuilder()
        .traceId(traceparent.substring(3, 35))
        .spanId(traceparent.substring(36, 52))
        .sampled((Character.digit(traceparent.charAt(54), 16) & 1) == 1)
        .build();
  }

  /** Version 00's form, with ids that are not all zeros. */
  private static boolean wellFormed(String s) {
    if (s == null
        || s.length() != LENGTH
        || !s.startsWith("00-")
        || s.charAt(35) != '-'
        || s.charAt(52) != '-') {
      return false;
    }
    return hex(s, 3, 35) && hex(s, 36, 52) && hex(s, 53, 55);
  }

  private static boolean hex(String s, int from, int to) {
    boolean nonZero = false;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (Character.digit(c, 16) < 0 || Character.isUpperCase(c)) {
        return false;
      }
      nonZero |= c != '0';
    }
    return nonZero || to - from == 2;
  }
}
