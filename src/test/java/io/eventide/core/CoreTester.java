package io.eventide.core;

import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.ManualClock;
import io.eventide.engine.Time;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Drives a {@link PipelineCore} over directly called shards on a manual clock, the way the live
 * runtime does over its queues: post a batch, a watermark or a beat, then read what came out.
 * Modelled on the engine's {@code EngineTester}; the live rules are exercised without threads,
 * Spring or a store.
 */
final class CoreTester {
  private final ManualClock clock;
  private final PipelineCore core;
  private final DirectShards shards;
  private final List<RenderedPane> panes = new ArrayList<>();
  private final List<DeadLetter> letters = new ArrayList<>();

  /** The lateness advisor as last taken from the core. */
  private String lateness;

  private CoreTester(
      PipelineDefinition definition,
      int shardCount,
      long start,
      RenderBudget renderBudget,
      IngestBounds bounds) {
    this.clock = new ManualClock(start);
    ShardCore[] cores = new ShardCore[shardCount];
    for (int i = 0; i < shardCount; i++) {
      cores[i] =
          new ShardCore(
              i,
              bounds.openWindowShare(i, shardCount),
              definition,
              clock,
              false,
              ShardSnapshot.EMPTY,
              bounds,
              renderBudget);
    }
    this.shards = new DirectShards(cores);
    this.core =
        new PipelineCore(
            definition,
            WatermarkMode.FROM_SOURCES,
            shardCount,
            Time.MIN,
            null,
            null,
            false,
            bounds,
            null);
  }

  /**
   * A live pipeline defined by {@code json}, with {@code shards} shards, at wall-clock {@code
   * start}.
   */
  static CoreTester of(String json, int shards, long start) {
    return of(json, shards, start, RenderBudget.UNBOUNDED);
  }

  /** The same, with its shards charging {@code renderBudget} for every pane they render. */
  static CoreTester of(String json, int shards, long start, RenderBudget renderBudget) {
    return of(json, shards, start, renderBudget, IngestBounds.DEFAULT);
  }

  /** The same, within {@code bounds}. */
  static CoreTester of(
      String json, int shards, long start, RenderBudget renderBudget, IngestBounds bounds) {
    return new CoreTester(
        PipelineParser.parseNamed(
            JsonMapper.shared().readTree(json),
            "p",
            KafkaNamespace.DEFAULT,
            PipelineLimits.DEFAULT),
        shards,
        start,
        renderBudget,
        bounds);
  }

  /** One batch, as one request would carry it; returns its counts. */
  IngestResult post(String... events) {
    EventTexts batch = new EventTexts(events.length);
    for (String e : events) {
      batch.add(e.getBytes(StandardCharsets.UTF_8));
    }
    PipelineCore.ReadBatch read = core.read(batch, i -> null, clock.now());
    IngestResult applied = IngestResult.EMPTY;
    for (ShardStep step : core.apply(read, clock.now(), shards)) {
      applied = applied.plus(step.outcome());
      collect(step);
    }
    letters.addAll(read.rejected());
    return read.result(applied);
  }

  boolean postWatermark(String source, long watermark) {
    PipelineCore.Posted<ShardStep> posted =
        core.postWatermark(source, watermark, clock.now(), shards);
    posted.steps().forEach(this::collect);
    return posted.accepted();
  }

  /** Moves the wall clock and beats, as the live scheduler does. */
  void beatAt(long now) {
    clock.set(now);
    core.beat(clock.now(), shards).forEach(this::collect);
  }

  long watermark() {
    return core.watermark();
  }

  /**
   * What the events so far needed of lateness, as a reader of the store would see it once the
   * advisor was committed: the clock is moved past the advisor's write interval to take it.
   */
  LatenessReport lateness() {
    clock.set(clock.now() + IngestBounds.DEFAULT.latenessWriteInterval());
    String taken = core.changes(clock.now()).lateness();
    if (taken != null) {
      lateness = taken;
    }
    return LatenessReport.of(lateness == null ? List.of() : List.of(lateness));
  }

  List<String> sources() {
    return core.sources(clock.now()).stream().map(WatermarkTracker.SourceView::source).toList();
  }

  int shardOf(String key) {
    return core.shardOf(key);
  }

  ShardCore shard(int index) {
    return shards.shard(index);
  }

  /** The panes emitted since the last call, rendered as every output carries them. */
  List<JsonNode> takePanes() {
    List<JsonNode> out = new ArrayList<>();
    panes.forEach(p -> out.add(JsonMapper.shared().readTree(p.json())));
    panes.clear();
    return out;
  }

  List<DeadLetter> takeDeadLetters() {
    List<DeadLetter> out = List.copyOf(letters);
    letters.clear();
    return out;
  }

  private void collect(ShardStep step) {
    panes.addAll(step.panes());
    letters.addAll(step.deadLetters());
  }

  static String event(String key, long timestamp, double value) {
    return "{\"key\": \"%s\", \"timestamp\": %d, \"value\": %s}".formatted(key, timestamp, value);
  }

  static String event(String key, long timestamp, double value, String id) {
    return "{\"key\": \"%s\", \"timestamp\": %d, \"value\": %s, \"id\": \"%s\"}"
        .formatted(key, timestamp, value, id);
  }

  static String fromSource(String key, long timestamp, String source) {
    return "{\"key\": \"%s\", \"timestamp\": %d, \"value\": 1, \"source\": \"%s\"}"
        .formatted(key, timestamp, source);
  }
}
