package io.eventide.ops;

import io.eventide.engine.DropReason;
import io.eventide.engine.Timing;
import java.util.List;

/**
 * Names, descriptions, tags and tag values of Eventide's meters; docs/operations.md explains each
 * one.
 */
final class MeterNames {
  static final String PREFIX = "eventide.";
  static final String PIPELINE = "pipeline";

  /** Series of the Kafka pane forwarders, registered and removed with them. */
  static final String KAFKA_PREFIX = "eventide.kafka.";

  static final MeterName INGESTED =
      new MeterName(
          "eventide.events.ingested", "Events applied to their windows, late ones included");
  static final MeterName LATE =
      new MeterName(
          "eventide.events.late",
          "Events applied although the watermark had passed their window, within the allowed lateness; a part of ingested");
  static final MeterName DUPLICATES =
      new MeterName(
          "eventide.events.duplicates",
          "Events skipped because an event with the same id was already applied");
  static final MeterName FILTERED =
      new MeterName("eventide.events.filtered", "Events the pipeline's filter dropped");
  static final MeterName CLAMPED =
      new MeterName(
          "eventide.events.clamped",
          "Events beyond maxFutureSkew taken with their arrival time as timestamp (watermark.onFutureSkew clamp)");
  static final MeterName DROPPED =
      new MeterName(
          "eventide.events.dropped",
          "Events not applied, each a dead letter, by reason (expired, closed, future, invalid, quota)");
  static final String REASON = "reason";
  static final MeterName PANES =
      new MeterName("eventide.panes.emitted", "Panes emitted, by timing (EARLY, ON_TIME, LATE)");
  static final String TIMING = "timing";
  static final MeterName BATCH =
      new MeterName(
          "eventide.ingest.batch",
          "Time from a batch's arrival until its effect is applied on every shard");
  static final MeterName INPUT_WATERMARK =
      new MeterName(
          "eventide.watermark.input",
          "The input watermark, in seconds since the epoch; NaN before the first event");
  static final MeterName WATERMARK_LAG =
      new MeterName(
          "eventide.watermark.lag",
          "Wall clock minus input watermark, never below 0; NaN before the first event");
  static final MeterName OPEN_WINDOWS =
      new MeterName("eventide.windows.open", "Windows holding state, as of the last clock beat");
  static final MeterName SSE_SUBSCRIBERS =
      new MeterName("eventide.sse.subscribers", "Live pane streams");
  static final MeterName PARTITION_WATERMARK =
      new MeterName(
          "eventide.cluster.partition.watermark",
          "What an owned partition's own sources say of event time");
  static final MeterName COMMIT =
      new MeterName(
          "eventide.state.commit",
          "Time the state store takes to write one commit (with Redis: one round trip)");
  static final MeterName COMMIT_FAILURES =
      new MeterName(
          "eventide.state.commit.failures",
          "Commits that failed; each answers 503 and rebuilds the pipeline from the store");

  /** The reasons a dead letter gives, registered up front so that alerts see zeros, not gaps. */
  static final List<DropReason> DROP_REASONS = List.of(DropReason.values());

  static final List<Timing> TIMINGS = List.of(Timing.values());

  private MeterNames() {}

  /**
   * A meter's name and its description, which Prometheus shows as the series' HELP and
   * /actuator/metrics as its description: every Eventide meter has one.
   */
  record MeterName(String name, String description) {}
}
