package io.eventide.engine;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.util.ArrayList;
import java.util.List;

/**
 * Drives an {@link EventTimeEngine} the way a test reads: inject a batch, advance the watermark or
 * processing time, take the panes. Modelled on Beam's ReduceFnTester and Flink's operator test
 * harnesses; the default aggregate is {@code collect}, so a pane's value lists its elements.
 */
public final class EngineTester {
  /** The key used when a test does not name one. */
  public static final String KEY = "k";

  private final ManualClock clock = new ManualClock(0);
  private final List<Pane> panes = new ArrayList<>();
  private final List<Dropped> dropped = new ArrayList<>();
  private final List<Merged> merged = new ArrayList<>();
  private final List<Closed> closed = new ArrayList<>();
  private final EventTimeEngine engine;
  private final ElementBatch batch = new ElementBatch(16);
  private final List<Element> batchElements = new ArrayList<>();

  /** An input element. */
  public record Element(String key, long timestamp, Object value) {}

  /** An element that did not reach a window. */
  public record Dropped(Element element, Window window, DropReason reason) {}

  /** A session window that had emitted panes was merged into another. */
  public record Merged(String key, Window from, Window into) {}

  /** A window that had emitted panes was garbage-collected without a closing pane. */
  public record Closed(String key, Window window) {}

  private EngineTester(WindowingStrategy strategy, Aggregate<?> aggregate) {
    this.engine =
        new EventTimeEngine(
            strategy,
            aggregate,
            clock,
            new PaneOutput() {
              @Override
              public void pane(Pane pane) {
                panes.add(pane);
              }

              @Override
              public void dropped(int element, Window window, DropReason reason) {
                dropped.add(new Dropped(batchElements.get(element), window, reason));
              }

              @Override
              public void merged(String key, Window from, Window into) {
                merged.add(new Merged(key, from, into));
              }

              @Override
              public void closedWithoutPane(String key, Window window) {
                closed.add(new Closed(key, window));
              }
            });
  }

  public static EngineTester of(WindowingStrategy strategy) {
    return of(strategy, "collect");
  }

  public static EngineTester of(WindowingStrategy strategy, String aggregate) {
    return new EngineTester(strategy, Aggregates.create(AggregateSpec.of(aggregate)));
  }

  public static Element el(long timestamp, Object value) {
    return new Element(KEY, timestamp, value);
  }

  public static Element el(String key, long timestamp, Object value) {
    return new Element(key, timestamp, value);
  }

  /** Injects one batch. */
  public EngineTester inject(Element... elements) {
    batch.clear();
    batchElements.clear();
    for (Element e : elements) {
      double number = e.value() instanceof Number n ? n.doubleValue() : Double.NaN;
      batch.add(e.key(), e.timestamp(), number, e.value(), Double.NaN);
      batchElements.add(e);
    }
    engine.processBatch(batch);
    return this;
  }

  /** The last batch injected, with the engine's per-element outcomes. */
  public ElementBatch lastBatch() {
    return batch;
  }

  /** Injects each element as a batch of its own. */
  public EngineTester injectEach(Element... elements) {
    for (Element e : elements) {
      inject(e);
    }
    return this;
  }

  public EngineTester advanceWatermark(long watermark) {
    engine.advanceWatermark(watermark);
    return this;
  }

  public EngineTester advanceWatermarkToEnd() {
    return advanceWatermark(Time.MAX);
  }

  /** Moves processing time to {@code time} and fires the timers strictly before it. */
  public EngineTester advanceProcessingTime(long time) {
    clock.set(time);
    engine.fireProcessingTimers();
    return this;
  }

  /** Sets processing time without firing timers, as the moment a following batch arrives. */
  public EngineTester processingTime(long time) {
    clock.set(time);
    return this;
  }

  /** The panes emitted since the last call. */
  public List<Pane> takePanes() {
    List<Pane> out = List.copyOf(panes);
    panes.clear();
    return out;
  }

  public List<Dropped> takeDropped() {
    List<Dropped> out = List.copyOf(dropped);
    dropped.clear();
    return out;
  }

  /** The merges of windows that had emitted panes, since the last call. */
  public List<Merged> takeMerged() {
    List<Merged> out = List.copyOf(merged);
    merged.clear();
    return out;
  }

  /** The windows closed without a closing pane since the last call. */
  public List<Closed> takeClosed() {
    List<Closed> out = List.copyOf(closed);
    closed.clear();
    return out;
  }

  public long outputWatermark() {
    return engine.outputWatermark(KEY);
  }

  public EventTimeEngine engine() {
    return engine;
  }

  /**
   * The encoded state last reported changed since the engine began tracking changes ({@link
   * EventTimeEngine#trackChanges()}), draining them: a key's state as a store would hold it.
   */
  public byte[] drainChangedState() {
    byte[][] state = new byte[1][];
    engine.drainChanges(
        new KeyStateChanges() {
          @Override
          public void changed(String key, byte[] s) {
            state[0] = s;
          }

          @Override
          public void removed(String key) {}
        });
    return state[0];
  }
}
