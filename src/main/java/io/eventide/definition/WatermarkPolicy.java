package io.eventide.definition;

import java.time.Duration;

/**
 * How live sources derive their watermarks (not used by {@code /simulate}, whose steps set the
 * watermark explicitly).
 *
 * @param maxOutOfOrderness how far behind the latest event time a source's watermark trails
 * @param idleTimeout after how long without events a source no longer holds the watermark back
 * @param maxFutureSkew how far ahead of the wall clock an event may claim to be
 * @param idleAdvance when every source is idle, let the watermark follow the wall clock minus the
 *     out-of-orderness, so that windows close when traffic stops
 * @param onFutureSkew what becomes of an event beyond {@code maxFutureSkew}
 */
public record WatermarkPolicy(
    Duration maxOutOfOrderness,
    Duration idleTimeout,
    Duration maxFutureSkew,
    boolean idleAdvance,
    FutureSkewAction onFutureSkew) {
  public static final WatermarkPolicy DEFAULT =
      new WatermarkPolicy(
          Duration.ZERO,
          Duration.ofMinutes(1),
          Duration.ofMinutes(10),
          false,
          FutureSkewAction.REJECT);
}
