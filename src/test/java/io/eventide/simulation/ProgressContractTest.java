package io.eventide.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The progress contract over random scenarios, through {@code /simulate} with progress: no pane of
 * a window ever follows a progress whose {@code finalThrough} reached the window's {@code finalAt},
 * every window the watermark collected is covered by a progress after its last pane, and no early
 * or on-time pane (retractions aside) comes with a timestamp before the output watermark a progress
 * already announced (which is never ahead of {@code finalThrough}, and neither part ever goes
 * back).
 */
class ProgressContractTest {
  private static final int SCENARIOS = Integer.getInteger("eventide.progress.scenarios", 300);
  private static final SimulationLimits LIMITS =
      new SimulationLimits(100, 1000, 10_000, 1 << 24, Duration.ofSeconds(30));
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private static final String[] WINDOWS = {
    "{'type':'fixed','size':'1m'}",
    "{'type':'sliding','size':'2m','period':'1m'}",
    "{'type':'session','gap':'30s'}"
  };
  private static final String[] TRIGGERS = {
    "{'type':'default'}",
    "{'type':'afterWatermark','early':{'type':'afterCount','count':2},"
        + "'late':{'type':'afterCount','count':1}}",
    "{'type':'repeatedly','trigger':{'type':'afterCount','count':2}}",
    "{'type':'afterCount','count':3}",
    "{'type':'afterWatermark'}"
  };
  private static final String[] LATENESS = {"PT0S", "PT30S", "PT2M"};
  private static final String[] MODES = {"discarding", "accumulating", "retracting"};
  private static final String[] CLOSING = {"fire_if_non_empty", "fire_always"};
  private static final String[] COMBINERS = {"end_of_window", "earliest", "latest"};

  @Test
  void noPaneFollowsAProgressThatMadeItsWindowFinalAndEveryCollectedWindowIsCovered() {
    Random random = new Random(20261203);
    int heldBack = 0;
    for (int s = 0; s < SCENARIOS; s++) {
      ObjectNode request = scenario(random);
      heldBack += check(s, request, run(request));
    }
    // Holds kept the output watermark behind the input in some scenarios, or the watermark checks
    // above would have tested nothing the final time does not.
    assertThat(heldBack).as("progress events with the output behind finalThrough").isPositive();
  }

  private static ObjectNode scenario(Random random) {
    String pipeline =
        ("{'window':%s,'trigger':%s,'allowedLateness':'%s','accumulation':'%s',"
                + "'closingBehavior':'%s','timestampCombiner':'%s','aggregate':{'type':'count'}}")
            .formatted(
                pick(random, WINDOWS),
                pick(random, TRIGGERS),
                pick(random, LATENESS),
                pick(random, MODES),
                pick(random, CLOSING),
                pick(random, COMBINERS));
    ObjectNode request = JSON.objectNode();
    request.set("pipeline", JsonMapper.shared().readTree(pipeline.replace('\'', '"')));
    request.put("progress", true);
    ArrayNode steps = request.putArray("steps");
    long watermark = 0;
    int count = 3 + random.nextInt(12);
    for (int i = 0; i < count; i++) {
      if (random.nextInt(3) == 0) {
        watermark += random.nextInt(90_000);
        steps.addObject().put("watermark", watermark);
      } else {
        ArrayNode events = steps.addObject().putArray("events");
        for (int e = 1 + random.nextInt(4); e > 0; e--) {
          // Around the watermark: some on time, some late, some past the lateness.
          long ts = Math.max(0, watermark - 150_000 + random.nextInt(240_000));
          events.addObject().put("key", "k" + random.nextInt(3)).put("timestamp", ts);
        }
      }
    }
    steps.addObject().put("watermark", watermark + random.nextInt(400_000));
    return request;
  }

  private static List<JsonNode> run(ObjectNode request) {
    SimulationRequest parsed =
        new SimulationRequestParser(LIMITS, PipelineLimits.DEFAULT).parse(request);
    return new ArrayList<>(new Simulator(LIMITS).run(parsed, () -> false).outputs());
  }

  /** Checks one scenario; how many of its progress events had the output behind. */
  private static int check(int scenario, ObjectNode request, List<JsonNode> outputs) {
    long through = Long.MIN_VALUE;
    long watermark = Long.MIN_VALUE;
    int heldBack = 0;
    List<Long> finalAts = new ArrayList<>();
    for (JsonNode o : outputs) {
      if (o.path("progress").asBoolean()) {
        long next = time(o.get("finalThrough").asString());
        long nextWatermark = time(o.get("watermark").asString());
        assertThat(next)
            .as("final time never goes back, scenario %s", request)
            .isGreaterThanOrEqualTo(through);
        assertThat(nextWatermark)
            .as("output watermark never goes back, scenario %s", request)
            .isGreaterThanOrEqualTo(watermark);
        assertThat(next > through || nextWatermark > watermark)
            .as("a progress moved something, scenario %s", request)
            .isTrue();
        assertThat(nextWatermark)
            .as("output watermark not ahead of the final time, scenario %s", request)
            .isLessThanOrEqualTo(next);
        heldBack += nextWatermark < next ? 1 : 0;
        through = next;
        watermark = nextWatermark;
        finalAts.clear();
        continue;
      }
      String timing = o.path("pane").path("timing").asString("");
      // A retraction takes back an earlier pane, with that pane's timestamp.
      boolean retraction = o.path("retraction").asBoolean();
      if (!retraction && (timing.equals("EARLY") || timing.equals("ON_TIME"))) {
        assertThat(time(o.get("timestamp").asString()))
            .as(
                "%s pane %s of scenario %d after a progress with the output watermark at %d: %s",
                timing, o, scenario, watermark, request)
            .isGreaterThanOrEqualTo(watermark);
      }
      if (o.has("finalAt")) {
        long finalAt = time(o.get("finalAt").asString());
        assertThat(finalAt)
            .as(
                "pane %s of scenario %d after a progress through %d: %s",
                o, scenario, through, request)
            .isGreaterThan(through);
        finalAts.add(finalAt);
      }
    }
    long last = through;
    // What the last progress left uncovered must still be open at the end.
    assertThat(finalAts)
        .as("windows collected after the last progress, scenario %s", request)
        .allMatch(finalAt -> finalAt > last);
    return heldBack;
  }

  private static long time(String text) {
    return switch (text) {
      case "+inf" -> Long.MAX_VALUE;
      case "-inf" -> Long.MIN_VALUE;
      default -> Instant.parse(text).toEpochMilli();
    };
  }

  private static String pick(Random random, String[] options) {
    return options[random.nextInt(options.length)];
  }
}
