package io.eventide.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.DropReason;
import io.eventide.engine.Time;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A pipeline of named aggregates computes, name by name, what a pipeline of that one aggregate
 * computes over the same field: same panes in the same order, same value, same partial, under every
 * accumulation mode, with session merges and late data. A computed field ({@code expr}) equals the
 * single aggregate over the field the producer would otherwise have had to add.
 */
class NamedAggregatesPropertyTest {
  private static final long START = 1_000_000;

  /** Name, its definition in the named pipeline, and the single aggregate it must equal. */
  private record Case(String name, String named, String single, String valuePointer) {}

  private static final List<Case> CASES =
      List.of(
          new Case("clicks", "{\"type\": \"count\"}", "{\"type\": \"count\"}", "/n"),
          new Case("total", "{\"type\": \"sum\", \"field\": \"/n\"}", "{\"type\": \"sum\"}", "/n"),
          new Case(
              "pages",
              "{\"type\": \"distinctCount\", \"field\": \"/page\"}",
              "{\"type\": \"distinctCount\"}",
              "/page"),
          new Case(
              "p50",
              "{\"type\": \"quantiles\", \"field\": \"/latency\", \"fractions\": [0.5]}",
              "{\"type\": \"quantiles\", \"fractions\": [0.5]}",
              "/latency"),
          new Case(
              "doubled",
              "{\"type\": \"max\", \"expr\": \"event.n * 2.0\"}",
              "{\"type\": \"max\"}",
              "/doubled"),
          new Case("avg", "{\"type\": \"mean\", \"field\": \"/n\"}", "{\"type\": \"mean\"}", "/n"));

  /** One step: a batch of events, then the watermark moved to the batch's latest time or more. */
  record Step(List<String> events, long watermarkGain) {}

  @Property(tries = 150)
  void eachNamedAggregateEqualsItsSingleAggregate(
      @ForAll("accumulation") String accumulation,
      @ForAll("window") String window,
      @ForAll("steps") List<Step> steps) {
    String common =
        """
        "window": %s,
        "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 2},
                    "late": {"type": "afterCount", "count": 1}},
        "allowedLateness": "PT1M",
        "accumulation": "%s"
        """
            .formatted(window, accumulation);
    StringBuilder aggregates = new StringBuilder();
    for (Case c : CASES) {
      aggregates.append(aggregates.isEmpty() ? "" : ", ");
      aggregates.append('"').append(c.name()).append("\": ").append(c.named());
    }
    CoreTester multi =
        CoreTester.of("{" + common + ", \"aggregates\": {" + aggregates + "}}", 1, START);
    List<JsonNode> multiPanes = run(multi, steps);
    for (Case c : CASES) {
      CoreTester single =
          CoreTester.of(
              "{%s, \"aggregate\": %s, \"event\": {\"value\": \"%s\"}}"
                  .formatted(common, c.single(), c.valuePointer()),
              1,
              START);
      List<JsonNode> singlePanes = run(single, steps);
      assertThat(singlePanes).hasSameSizeAs(multiPanes);
      for (int i = 0; i < multiPanes.size(); i++) {
        assertThat(projected(multiPanes.get(i), c.name()))
            .as("pane %d of %s", i, c.name())
            .isEqualTo(singlePanes.get(i));
      }
    }
  }

  /**
   * The pane of the named pipeline as the single pipeline of {@code name} would have it: its value,
   * partial and restated value by that name.
   */
  private static JsonNode projected(JsonNode pane, String name) {
    ObjectNode out = (ObjectNode) pane.deepCopy();
    out.set("value", pane.get("value").get(name));
    JsonNode partial = pane.get("partial");
    if (partial != null && partial.has(name)) {
      out.set("partial", partial.get(name));
    } else {
      out.remove("partial");
    }
    JsonNode restated = pane.at("/restates/value");
    if (!restated.isMissingNode()) {
      ((ObjectNode) out.get("restates")).set("value", restated.get(name));
    }
    return out;
  }

  private static List<JsonNode> run(CoreTester tester, List<Step> steps) {
    List<JsonNode> panes = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    for (Step step : steps) {
      tester.post(step.events().toArray(String[]::new));
      panes.addAll(tester.takePanes());
      if (step.watermarkGain() > 0) {
        watermark = Math.max(watermark, tester.watermark()) + step.watermarkGain();
        tester.postWatermark(null, watermark);
        panes.addAll(tester.takePanes());
      }
    }
    tester.postWatermark(null, Time.MAX);
    panes.addAll(tester.takePanes());
    assertThat(tester.takeDeadLetters()).allMatch(d -> d.reason() != DropReason.INVALID);
    return panes;
  }

  @Provide
  Arbitrary<String> accumulation() {
    return Arbitraries.of("discarding", "accumulating", "retracting");
  }

  @Provide
  Arbitrary<String> window() {
    return Arbitraries.of(
        "{\"type\": \"session\", \"gap\": \"PT30S\"}", "{\"type\": \"fixed\", \"size\": \"PT1M\"}");
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<String> event =
        Combinators.combine(
                Arbitraries.of("a", "b", "c"),
                Arbitraries.longs().between(0, 300_000),
                Arbitraries.integers().between(0, 100),
                Arbitraries.of("p1", "p2", "p3", "p4"),
                Arbitraries.doubles().between(0, 1000).ofScale(2))
            .as(
                (key, time, n, page, latency) ->
                    ("{\"key\": \"%s\", \"timestamp\": %d, \"n\": %d, \"doubled\": %s,"
                            + " \"page\": \"%s\", \"latency\": %s}")
                        .formatted(key, START + time, n, n * 2.0, page, latency));
    Arbitrary<Step> step =
        Combinators.combine(
                event.list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.frequencyOf(
                    Tuple.of(2, Arbitraries.just(0L)),
                    Tuple.of(1, Arbitraries.longs().between(1, 90_000))))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(8);
  }
}
