package io.eventide.core;

import io.eventide.core.read.Event;
import io.eventide.core.render.PaneRecordWriter;
import io.eventide.definition.PipelineDefinition;
import io.eventide.engine.DropReason;
import io.eventide.engine.ElementBatch;
import io.eventide.engine.EventTimeEngine;
import io.eventide.engine.KeyStateChanges;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneOutput;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Window;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowSnapshot;
import io.eventide.engine.WindowingStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One slice of a pipeline's keys, synchronous: the engine, the event ids it has applied, and the
 * rendering of what it emits. Each step (a batch part, a watermark advance, a beat of processing
 * time) returns a {@link ShardStep} with the panes, the dead letters and, when state is durable,
 * the keys it changed. Not thread-safe: the live runtime runs it on a serial queue, {@code
 * /simulate} calls it directly.
 */
public final class ShardCore {
  private final int index;
  private final String pipeline;
  private final EventTimeEngine engine;
  private final WindowingStrategy strategy;
  private final ProcessingClock clock;
  private final boolean durable;
  private final IdTracker ids;
  private final long idRetention;
  private final int maxListed;
  private final int maxOpenWindows;
  private final Set<String> batchIds = new HashSet<>();
  private final PaneRecordWriter records;
  private final ElementBatch batch;
  private final RenderBudget renderBudget;
  private final List<RenderedPane> emitted = new ArrayList<>();
  private final List<DeadLetter> letters = new ArrayList<>();
  private final List<MergedWindow> mergedAway = new ArrayList<>();
  private final boolean reportClosed;
  private final List<KeyedWindow> closedWithoutPane = new ArrayList<>();
  private final Changes changes = new Changes();
  private final Map<String, Long> rememberedIds = new LinkedHashMap<>();
  private long committedWatermark;
  private final long[] starts;
  private final long[] ends;
  private int[] batchToPart = new int[256];
  private DropReason[] firstDrop = new DropReason[256];
  private Window[] firstDropWindow = new Window[256];

  /**
   * @param durable whether the state store keeps state, so that steps must report what changed
   * @param restored the shard's state as the store had it
   * @param maxOpenWindows the windows this shard may hold at once: its share of the pipeline's (see
   *     {@link IngestBounds#openWindowShare})
   * @param renderBudget charged for every pane as it is rendered
   */
  public ShardCore(
      int index,
      int maxOpenWindows,
      PipelineDefinition definition,
      ProcessingClock clock,
      boolean durable,
      ShardSnapshot restored,
      IngestBounds bounds,
      RenderBudget renderBudget) {
    this.index = index;
    this.renderBudget = renderBudget;
    this.ids = new IdTracker(bounds.maxIdsPerShard());
    this.idRetention = bounds.idRetention();
    this.maxListed = bounds.maxRejectedListed();
    this.pipeline = definition.name();
    this.records = new PaneRecordWriter(pipeline, definition.event().keyFields());
    this.strategy = definition.windowingStrategy();
    this.clock = clock;
    this.durable = durable;
    this.reportClosed = definition.sinks().sendFinals();
    this.engine = new EventTimeEngine(strategy, definition.newAggregate(), clock, new Output());
    engine.limitOpenWindows(maxOpenWindows);
    this.maxOpenWindows = maxOpenWindows;
    this.batch = new ElementBatch(256, engine.lanes());
    WindowFn fn = strategy.windowFn();
    this.starts = new long[fn.maxWindowsPerElement()];
    this.ends = new long[fn.maxWindowsPerElement()];
    if (durable) {
      engine.trackChanges();
    }
    if (restored.watermark() != null) {
      engine.restoreInputWatermark(restored.watermark());
    }
    restored.keys().forEach(engine::restoreKey);
    restored.ids().forEach(ids::remember);
    this.committedWatermark = engine.inputWatermark();
  }

  /** Applies a batch part: repeated ids are counted as duplicates, the rest go to the engine. */
  public ShardStep apply(List<IncomingEvent> events) {
    return step(applyNow(events));
  }

  public ShardStep advanceWatermark(long watermark) {
    engine.advanceWatermark(watermark);
    ids.expire(engine.inputWatermark());
    return step(IngestResult.EMPTY);
  }

  public ShardStep fireProcessingTimers() {
    engine.fireProcessingTimers();
    return step(IngestResult.EMPTY);
  }

  /** The watermark the engine has reached, for a pipeline starting from restored state. */
  public long inputWatermark() {
    return committedWatermark;
  }

  /**
   * At most {@code limit} open windows of {@code key} (of every key when null) in key and window
   * order, after the window {@code after} (null: from the first).
   */
  public List<WindowSnapshot> explain(String key, KeyedWindow after, int limit) {
    return after == null
        ? engine.explain(key, null, null, limit)
        : engine.explain(key, after.key(), new Window(after.start(), after.end()), limit);
  }

  public long outputWatermark() {
    return engine.outputWatermark();
  }

  public int openWindows() {
    return engine.openWindowCount();
  }

  private IngestResult applyNow(List<IncomingEvent> events) {
    batch.clear();
    if (batchToPart.length < events.size()) {
      int c = Math.max(events.size(), batchToPart.length * 2);
      batchToPart = new int[c];
      firstDrop = new DropReason[c];
      firstDropWindow = new Window[c];
    }
    int duplicates = 0;
    batchIds.clear();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i).event();
      if (e.id() != null && (ids.knows(e.id()) || !batchIds.add(e.id()))) {
        duplicates++;
        continue;
      }
      int b = batch.add(e.key(), e.timestamp(), e.values(), e.payloads(), e.volumes());
      batchToPart[b] = i;
      firstDrop[b] = null;
      firstDropWindow[b] = null;
    }
    engine.processBatch(batch);
    int accepted = 0;
    int late = 0;
    int expired = 0;
    int closed = 0;
    int quota = 0;
    List<Rejection> refused = null;
    long now = clock.now();
    for (int b = 0; b < batch.size(); b++) {
      IncomingEvent in = events.get(batchToPart[b]);
      if (batch.wasAdded(b)) {
        // Only an applied event makes a later one with its id a duplicate; a dropped one can
        // still be sent again, e.g. after its pipeline's lateness was raised.
        remember(in.event());
        accepted++;
        if (batch.wasLate(b)) {
          late++;
        }
        continue;
      }
      DropReason reason = firstDrop[b];
      DeadLetter letter;
      if (reason == DropReason.QUOTA) {
        quota++;
        letter = DeadLetter.overQuota(pipeline, in.raw(), firstDropWindow[b], maxOpenWindows, now);
      } else {
        if (reason == DropReason.EXPIRED) {
          expired++;
        } else {
          closed++;
        }
        letter = DeadLetter.dropped(pipeline, in.raw(), reason, firstDropWindow[b], now);
      }
      letters.add(letter);
      if (refused == null) {
        refused = new ArrayList<>();
      }
      refused.add(Rejection.of(in.index(), letter));
    }
    Arrays.fill(firstDropWindow, 0, batch.size(), null);
    batch.clear();
    return new IngestResult(
        accepted,
        late,
        duplicates,
        0,
        expired,
        closed,
        0,
        0,
        quota,
        0,
        refused == null ? Rejections.NONE : Rejections.of(maxListed, refused));
  }

  private void remember(Event applied) {
    if (applied.id() == null) {
      return;
    }
    long expiry = idExpiry(applied.timestamp());
    ids.remember(applied.id(), expiry);
    if (durable) {
      rememberedIds.put(applied.id(), expiry);
    }
  }

  /**
   * Ids live as long as the latest window their event went to can change, but no longer than the
   * retention past the event's time: a global window would otherwise keep every id for good.
   */
  private long idExpiry(long timestamp) {
    int n = strategy.windowFn().assign(timestamp, starts, ends);
    long maxEnd = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      maxEnd = Math.max(maxEnd, ends[i]);
    }
    long retained =
        timestamp > Long.MAX_VALUE - idRetention ? Long.MAX_VALUE : timestamp + idRetention;
    return Math.min(strategy.gcTime(maxEnd - 1), retained);
  }

  /** Hands over what the step produced and, when durable, what it changed. */
  private ShardStep step(IngestResult outcome) {
    List<RenderedPane> panes = emitted.isEmpty() ? List.of() : List.copyOf(emitted);
    List<DeadLetter> dropped = letters.isEmpty() ? List.of() : List.copyOf(letters);
    List<MergedWindow> merged = mergedAway.isEmpty() ? List.of() : List.copyOf(mergedAway);
    List<KeyedWindow> closed =
        closedWithoutPane.isEmpty() ? List.of() : List.copyOf(closedWithoutPane);
    emitted.clear();
    letters.clear();
    mergedAway.clear();
    closedWithoutPane.clear();
    ShardChanges changed = null;
    if (durable) {
      engine.drainChanges(changes);
      long watermark = engine.inputWatermark();
      Long moved = watermark != committedWatermark ? watermark : null;
      committedWatermark = watermark;
      changed = changes.take(index, rememberedIds, moved);
      rememberedIds.clear();
    }
    return new ShardStep(
        index, outcome, panes, merged, closed, dropped, changed, engine.outputWatermark());
  }

  /** Collects the engine's changed keys between two steps. */
  private static final class Changes implements KeyStateChanges {
    private Map<String, byte[]> changed = new HashMap<>();
    private List<String> added = new ArrayList<>();
    private List<String> removed = new ArrayList<>();

    @Override
    public void changed(String key, byte[] state) {
      changed.put(key, state);
    }

    @Override
    public void added(String key, byte[] state) {
      changed.put(key, state);
      added.add(key);
    }

    @Override
    public void removed(String key) {
      removed.add(key);
    }

    ShardChanges take(int shard, Map<String, Long> ids, Long watermark) {
      ShardChanges out =
          new ShardChanges(
              shard,
              changed.isEmpty() ? Map.of() : changed,
              added.isEmpty() ? List.of() : added,
              removed.isEmpty() ? List.of() : removed,
              ids.isEmpty() ? Map.of() : new LinkedHashMap<>(ids),
              watermark);
      if (!changed.isEmpty()) {
        changed = new HashMap<>();
      }
      if (!added.isEmpty()) {
        added = new ArrayList<>();
      }
      if (!removed.isEmpty()) {
        removed = new ArrayList<>();
      }
      return out;
    }
  }

  private final class Output implements PaneOutput {
    @Override
    public void pane(Pane pane) {
      String json = records.write(pane);
      renderBudget.charge(json.length());
      emitted.add(new RenderedPane(pane, json));
    }

    @Override
    public void merged(String key, Window from, Window into) {
      mergedAway.add(
          new MergedWindow(
              new KeyedWindow(key, from.start(), from.end()), records.writeMerge(key, from, into)));
    }

    @Override
    public void closedWithoutPane(String key, Window window) {
      if (reportClosed) {
        closedWithoutPane.add(new KeyedWindow(key, window.start(), window.end()));
      }
    }

    @Override
    public void dropped(int element, Window window, DropReason reason) {
      if (firstDrop[element] == null) {
        firstDrop[element] = reason;
        firstDropWindow[element] = window;
      }
    }
  }
}
