package io.eventide.beam;

import io.eventide.engine.WindowingStrategy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One differential-test case: a windowing strategy and a timeline of element batches, watermark
 * advances and processing-time advances. Processing time is an offset from the start of the
 * scenario (our clock starts at 0; Beam's test clock starts at its own minimum), so both runners
 * see the same distances between events and timers.
 *
 * @param id distinguishes the scenario's Beam outputs in the shared sink
 */
record Scenario(String id, WindowingStrategy strategy, List<Step> steps) {

  /** An element of a batch. */
  record Element(String key, long timestamp, int value) {}

  /** One step of the timeline. */
  sealed interface Step permits Events, Watermark, ProcessingTime {}

  /** A batch: per key, all its elements are added before the triggers are asked. */
  record Events(List<Element> elements) implements Step {
    Events {
      elements = List.copyOf(elements);
    }
  }

  /** Moves the input watermark to {@code time}; {@link io.eventide.engine.Time#MAX} ends time. */
  record Watermark(long time) implements Step {}

  /** Moves processing time to {@code time} (an offset from the scenario's start). */
  record ProcessingTime(long time) implements Step {}

  Scenario {
    steps = List.copyOf(steps);
  }

  /** The keys in order of first appearance. */
  List<String> keys() {
    Set<String> keys = new LinkedHashSet<>();
    for (Step s : steps) {
      if (s instanceof Events e) {
        e.elements().forEach(el -> keys.add(el.key()));
      }
    }
    return List.copyOf(keys);
  }

  /**
   * The same timeline restricted to one key: batches without that key's elements disappear, the
   * watermark and processing-time steps stay.
   */
  Scenario forKey(String key) {
    List<Step> out = new ArrayList<>();
    for (Step s : steps) {
      if (s instanceof Events e) {
        List<Element> mine = e.elements().stream().filter(el -> el.key().equals(key)).toList();
        if (!mine.isEmpty()) {
          out.add(new Events(mine));
        }
      } else {
        out.add(s);
      }
    }
    return new Scenario(id + "/" + key, strategy, out);
  }

  Scenario withSteps(List<Step> newSteps) {
    return new Scenario(id, strategy, newSteps);
  }

  Scenario withStrategy(WindowingStrategy newStrategy) {
    return new Scenario(id, newStrategy, steps);
  }
}
