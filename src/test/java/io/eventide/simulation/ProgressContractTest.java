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
 * and every window the watermark collected is covered by a progress after its last pane.
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

  @Test
  void noPaneFollowsAProgressThatMadeItsWindowFinalAndEveryCollectedWindowIsCovered() {
    Random random = new Random(20261203);
    for (int s = 0; s < SCENARIOS; s++) {
      ObjectNode request = scenario(random);
      check(s, request, run(request));
    }
  }

  private static ObjectNode scenario(Random random) {
    String pipeline =
        ("{'window':%s,'trigger':%s,'allowedLateness':'%s','accumulation':'%s',"
                + "'closingBehavior':'%s','aggregate':{'type':'count'}}")
            .formatted(
                pick(random, WINDOWS),
                pick(random, TRIGGERS),
                pick(random, LATENESS),
                pick(random, MODES),
                pick(random, CLOSING));
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

  private static void check(int scenario, ObjectNode request, List<JsonNode> outputs) {
    long through = Long.MIN_VALUE;
    List<Long> finalAts = new ArrayList<>();
    for (JsonNode o : outputs) {
      if (o.path("progress").asBoolean()) {
        long next = time(o.get("finalThrough").asString());
        assertThat(next).as("progress goes forward, scenario %s", request).isGreaterThan(through);
        through = next;
        finalAts.clear();
        continue;
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
