package io.eventide.ops;

import io.eventide.engine.DropReason;
import io.eventide.engine.Timing;
import java.util.List;

/** Names, tags and tag values of Eventide's meters; docs/operations.md explains each one. */
final class MeterNames {
  static final String PREFIX = "eventide.";
  static final String PIPELINE = "pipeline";

  /** Series of the Kafka pane forwarders, registered and removed with them. */
  static final String KAFKA_PREFIX = "eventide.kafka.";

  static final String INGESTED = "eventide.events.ingested";
  static final String LATE = "eventide.events.late";
  static final String DUPLICATES = "eventide.events.duplicates";
  static final String FILTERED = "eventide.events.filtered";
  static final String CLAMPED = "eventide.events.clamped";
  static final String DROPPED = "eventide.events.dropped";
  static final String REASON = "reason";
  static final String PANES = "eventide.panes.emitted";
  static final String TIMING = "timing";
  static final String BATCH = "eventide.ingest.batch";
  static final String INPUT_WATERMARK = "eventide.watermark.input";
  static final String WATERMARK_LAG = "eventide.watermark.lag";
  static final String OPEN_WINDOWS = "eventide.windows.open";
  static final String SSE_SUBSCRIBERS = "eventide.sse.subscribers";
  static final String PARTITION_WATERMARK = "eventide.cluster.partition.watermark";
  static final String COMMIT = "eventide.state.commit";
  static final String COMMIT_FAILURES = "eventide.state.commit.failures";

  /** The reasons a dead letter gives, registered up front so that alerts see zeros, not gaps. */
  static final List<DropReason> DROP_REASONS = List.of(DropReason.values());

  static final List<Timing> TIMINGS = List.of(Timing.values());

  private MeterNames() {}
}
