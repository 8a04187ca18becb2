package io.eventide.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineLimits;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code "autoWatermark": true}: the live source rules, applied on the simulated clock. */
class AutoWatermarkTest {
  private static final SimulationLimits LIMITS =
      new SimulationLimits(10_000, 100_000, 100_000, 64L << 20, Duration.ofSeconds(10));

  private static JsonNode run(String watermarkPolicy, String steps) {
    String body =
        ("{'pipeline':{'window':{'type':'fixed','size':'10s'},'aggregate':{'type':'count'},"
                + "'watermark':%s},'autoWatermark':true,'steps':[%s]}")
            .formatted(watermarkPolicy, steps)
            .replace('\'', '"');
    SimulationRequest request =
        new SimulationRequestParser(LIMITS, PipelineLimits.DEFAULT)
            .parse(JsonMapper.shared().readTree(body));
    return new Simulator(LIMITS).run(request, () -> false).toJson();
  }

  private static List<String> panes(JsonNode result) {
    return result
        .get("outputs")
        .valueStream()
        .map(
            o ->
                o.get("step").asInt()
                    + ":"
                    + o.get("window").get("start").asString()
                    + "="
                    + o.get("value").asInt())
        .toList();
  }

  @Test
  void theWatermarkTrailsTheLatestEventByTheOutOfOrderness() {
    JsonNode result =
        run(
            "{'maxOutOfOrderness':'5s'}",
            "{'events':[{'key':'k','timestamp':1000},{'key':'k','timestamp':12000}]},"
                + "{'events':[{'key':'k','timestamp':16000}]},"
                + "{'events':[{'key':'k','timestamp':3000}]}");
    // After step 0 the watermark is 7 s: nothing closes. Step 1 moves it to 11 s: [0, 10) fires.
    assertThat(panes(result)).containsExactly("1:1970-01-01T00:00:00.000Z=1");
    // The batch applies against the watermark as it stood: the event at 3 s comes too late.
    assertThat(result.get("dropped").get(0).get("reason").asString()).isEqualTo("expired");
    assertThat(result.get("dropped").get(0).get("step").asInt()).isEqualTo(2);
  }

  @Test
  void anEventFromTheFutureIsDroppedAndMovesNoWatermark() {
    JsonNode result =
        run(
            "{'maxFutureSkew':'1m'}",
            "{'events':[{'key':'k','timestamp':1000},{'key':'k','timestamp':600000}]},"
                + "{'events':[{'key':'k','timestamp':2000}]}");
    JsonNode dropped = result.get("dropped");
    assertThat(dropped).hasSize(1);
    assertThat(dropped.get(0).get("reason").asString()).isEqualTo("future");
    assertThat(dropped.get(0).get("path").asString()).isEqualTo("/timestamp");
    // Had the future event moved the watermark, the event at 2 s would have been expired.
    assertThat(panes(result)).isEmpty();
  }

  @Test
  void withClampAnEventFromTheFutureIsTakenAtTheSimulatedProcessingTime() {
    String steps =
        "{'events':[{'key':'k','timestamp':1000},{'key':'k','timestamp':600000}]},"
            + "{'events':[{'key':'k','timestamp':2000}]},"
            + "{'events':[{'key':'k','timestamp':11000}]}";
    JsonNode result = run("{'maxFutureSkew':'1m','onFutureSkew':'clamp'}", steps);
    assertThat(result.get("dropped")).isEmpty();
    assertThat(result.at("/counts/clamped").asInt()).isEqualTo(1);
    // Stamped at the processing time it arrived (0), it is counted in the first window, and it did
    // not carry the watermark ahead: the event at 2 s is on time.
    assertThat(panes(result)).containsExactly("2:1970-01-01T00:00:00.000Z=3");
    assertThat(run("{'maxFutureSkew':'1m','onFutureSkew':'clamp'}", steps)).isEqualTo(result);
  }

  @Test
  void whenEverySourceIsIdleTheWatermarkFollowsTheClockOnlyWithIdleAdvance() {
    String steps =
        "{'events':[{'key':'k','timestamp':5000,'source':'a'}]},{'processingTime':30000}";
    assertThat(panes(run("{'idleTimeout':'10s'}", steps))).isEmpty();
    assertThat(panes(run("{'idleTimeout':'10s','idleAdvance':true}", steps)))
        .containsExactly("1:1970-01-01T00:00:00.000Z=1");
  }

  @Test
  void anIdleSourceNoLongerHoldsTheOthersBack() {
    JsonNode result =
        run(
            "{'idleTimeout':'10s'}",
            "{'events':[{'key':'k','timestamp':1000,'source':'slow'}]},"
                + "{'processingTime':20000},"
                + "{'events':[{'key':'k','timestamp':25000,'source':'fast'}]}");
    // At 20 s 'slow' is idle, so 'fast' alone moves the watermark to 25 s.
    assertThat(panes(result)).containsExactly("2:1970-01-01T00:00:00.000Z=1");
  }

  @Test
  void anExplicitWatermarkStepMovesEverySource() {
    JsonNode result =
        run("{}", "{'events':[{'key':'k','timestamp':1000,'source':'a'}]},{'watermark':'+inf'}");
    assertThat(panes(result)).containsExactly("1:1970-01-01T00:00:00.000Z=1");
  }
}
