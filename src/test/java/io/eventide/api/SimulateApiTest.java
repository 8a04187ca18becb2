package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class SimulateApiTest {
  @Autowired WebTestClient client;

  private WebTestClient.ResponseSpec post(String body) {
    return client
        .post()
        .uri("/simulate")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange();
  }

  private JsonNode simulate(String body) {
    String response =
        post(body).expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    return JsonMapper.shared().readTree(response);
  }

  private static List<String> texts(JsonNode array, String pointer) {
    List<String> values = new ArrayList<>();
    array.forEach(element -> values.add(element.at(pointer).toString()));
    return values;
  }

  private static String event(String key, long timestamp, Object value) {
    String json = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    return "{\"key\":\"" + key + "\",\"timestamp\":" + timestamp + ",\"value\":" + json + "}";
  }

  /** Worked example 3: 60 s windows, default trigger, elements at 1, 59, 61 and 120 s. */
  @Test
  void firesEachFixedWindowWhenTheWatermarkPassesIt() {
    JsonNode result =
        simulate(
            """
            {"pipeline": {"name": "clicks", "window": {"type": "fixed", "size": "60s"},
                          "aggregate": {"type": "collect"}},
             "steps": [
               {"events": [%s, %s, %s, %s]},
               {"watermark": 59999}, {"watermark": "1970-01-01T00:01:00Z"},
               {"watermark": 119999}, {"watermark": 120000}, {"watermark": 180000}]}
            """
                .formatted(
                    event("k", 1_000, "a"),
                    event("k", 59_000, "b"),
                    event("k", 61_000, "c"),
                    event("k", 120_000, "d")));
    JsonNode outputs = result.get("outputs");
    assertThat(texts(outputs, "/step")).containsExactly("2", "4", "5");
    assertThat(texts(outputs, "/value")).containsExactly("[\"a\",\"b\"]", "[\"c\"]", "[\"d\"]");
    assertThat(texts(outputs, "/window/start"))
        .containsExactly(
            "\"1970-01-01T00:00:00.000Z\"",
            "\"1970-01-01T00:01:00.000Z\"",
            "\"1970-01-01T00:02:00.000Z\"");
    assertThat(texts(outputs, "/pane/timing")).containsOnly("\"ON_TIME\"");
    JsonNode first = outputs.get(0);
    assertThat(first.get("pipeline").stringValue()).isEqualTo("clicks");
    assertThat(first.get("key").stringValue()).isEqualTo("k");
    assertThat(first.get("window").get("end").stringValue()).isEqualTo("1970-01-01T00:01:00.000Z");
    assertThat(first.get("timestamp").stringValue()).isEqualTo("1970-01-01T00:00:59.999Z");
    assertThat(first.get("watermark").stringValue()).isEqualTo("1970-01-01T00:01:00.000Z");
    assertThat(first.get("finalAt").stringValue()).isEqualTo("1970-01-01T00:01:00.000Z");
    assertThat(first.get("retraction").asBoolean()).isFalse();
    assertThat(first.has("retracts")).isFalse();
    assertThat(first.has("partial")).isFalse();
    assertThat(result.get("dropped")).isEmpty();
    assertThat(result.get("warnings")).isEmpty();
  }

  /** Worked example 1: ten-minute windows, repeatedly(afterCount(3)), one event per step. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "accumulating | [5,8,3] | [5,8,3,15,19,23] | [5,8,3,15,19,23,9,13,10]",
        "discarding   | [5,8,3] | [15,19,23]       | [9,13,10]"
      })
  void firesEveryThirdElement(String accumulation, String first, String second, String third) {
    List<String> steps = new ArrayList<>();
    int[] values = {5, 8, 3, 15, 19, 23, 9, 13, 10};
    for (int i = 0; i < values.length; i++) {
      steps.add("{\"events\": [" + event("k", i * 1_000L, values[i]) + "]}");
    }
    JsonNode outputs =
        simulate(
                """
                {"pipeline": {"window": {"type": "fixed", "size": "10m"},
                              "trigger": {"type": "repeatedly",
                                          "trigger": {"type": "afterCount", "count": 3}},
                              "accumulation": "%s", "aggregate": {"type": "collect"}},
                 "steps": [%s]}
                """
                    .formatted(accumulation, String.join(",", steps)))
            .get("outputs");
    assertThat(texts(outputs, "/value")).containsExactly(first, second, third);
    assertThat(texts(outputs, "/step")).containsExactly("2", "5", "8");
    assertThat(texts(outputs, "/pane/index")).containsExactly("0", "1", "2");
    assertThat(texts(outputs, "/pane/timing")).containsOnly("\"EARLY\"");
    assertThat(texts(outputs, "/pane/nonSpeculativeIndex")).containsOnly("-1");
    assertThat(outputs.get(0).get("pipeline").stringValue()).isEqualTo("simulation");
  }

  /**
   * Worked example 4: two-minute windows, repeatedly(afterProcessingTime(30s)); values 1..4 at
   * event times 0, 30, 60, 90 s arriving at processing times 0, 31, 62, 93 s; then 125 s.
   */
  @ParameterizedTest
  @CsvSource({"discarding, 1, 2, 3, 4", "accumulating, 1, 3, 6, 10"})
  void firesOnProcessingTime(String accumulation, String a, String b, String c, String d) {
    JsonNode outputs =
        simulate(
                """
                {"pipeline": {"window": {"type": "fixed", "size": "2m"},
                              "trigger": {"type": "repeatedly", "trigger":
                                          {"type": "afterProcessingTime", "delay": "30s"}},
                              "accumulation": "%s", "aggregate": {"type": "sum"}},
                 "processingTimeStart": 0,
                 "steps": [
                   {"events": [%s]},
                   {"processingTime": 31000}, {"events": [%s]},
                   {"processingTime": "1970-01-01T00:01:02Z"}, {"events": [%s]},
                   {"processingTime": 93000}, {"events": [%s]},
                   {"processingTime": 125000}]}
                """
                    .formatted(
                        accumulation,
                        event("k", 0, 1),
                        event("k", 30_000, 2),
                        event("k", 60_000, 3),
                        event("k", 90_000, 4)))
            .get("outputs");
    assertThat(texts(outputs, "/value")).containsExactly(a, b, c, d);
    assertThat(texts(outputs, "/step")).containsExactly("1", "3", "5", "7");
    assertThat(texts(outputs, "/emittedAt"))
        .containsExactly(
            "\"1970-01-01T00:00:31.000Z\"",
            "\"1970-01-01T00:01:02.000Z\"",
            "\"1970-01-01T00:01:33.000Z\"",
            "\"1970-01-01T00:02:05.000Z\"");
  }

  @Test
  void reportsInvalidEventsWithTheirPathAndKeepsTheRest() {
    JsonNode result =
        simulate(
            """
            {"pipeline": {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
                          "event": {"key": "/user", "value": "/amount"}},
             "steps": [
               {"events": [{"user": "u", "timestamp": 1, "amount": "ten"},
                           {"timestamp": 2, "amount": 1},
                           {"user": 7, "timestamp": "1970-01-01T00:00:00.003Z", "amount": 2.5}]},
               {"watermark": "+inf"}]}
            """);
    JsonNode dropped = result.get("dropped");
    assertThat(dropped).hasSize(2);
    assertThat(dropped.get(0).toString())
        .isEqualTo(
            "{\"step\":0,\"event\":{\"user\":\"u\",\"timestamp\":1,\"amount\":\"ten\"},"
                + "\"reason\":\"invalid\",\"path\":\"/amount\","
                + "\"detail\":\"must be a finite number\",\"at\":\"1970-01-01T00:00:00.000Z\"}");
    assertThat(dropped.get(1).get("path").stringValue()).isEqualTo("/user");
    assertThat(dropped.get(1).get("detail").stringValue()).isEqualTo("is required");
    JsonNode outputs = result.get("outputs");
    assertThat(outputs).hasSize(1);
    assertThat(outputs.get(0).get("key").stringValue()).isEqualTo("7");
    assertThat(outputs.get(0).get("value").doubleValue()).isEqualTo(2.5);
    assertThat(outputs.get(0).get("step").asInt()).isEqualTo(1);
    assertThat(outputs.get(0).get("watermark").stringValue()).isEqualTo("+inf");
  }

  @Test
  void reportsExpiredEventsWithTheirWindow() {
    JsonNode result =
        simulate(
            """
            {"pipeline": {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "count"},
                          "allowedLateness": "30s"},
             "steps": [
               {"watermark": 120000}, {"watermark": 60000},
               {"events": [%s, %s]}]}
            """
                .formatted(event("k", 1_000, 0), event("k", 70_000, 0)));
    JsonNode dropped = result.get("dropped");
    assertThat(dropped).hasSize(1);
    assertThat(dropped.get(0).toString())
        .isEqualTo(
            "{\"step\":2,\"event\":{\"key\":\"k\",\"timestamp\":1000,\"value\":0},"
                + "\"reason\":\"expired\",\"detail\":\"the window is beyond its allowed lateness\","
                + "\"window\":{\"start\":\"1970-01-01T00:00:00.000Z\","
                + "\"end\":\"1970-01-01T00:01:00.000Z\"},\"at\":\"1970-01-01T00:00:00.000Z\"}");
    JsonNode late = result.get("outputs").get(0);
    assertThat(late.get("pane").get("timing").stringValue()).isEqualTo("LATE");
    assertThat(late.get("window").get("start").stringValue()).isEqualTo("1970-01-01T00:01:00.000Z");
  }

  /** Issue 35: a late pane after the on-time one says which pane, and what figure, it restates. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "accumulating | 41,45 | {\"index\":0,\"value\":41}",
        "retracting   | 41,41,45 | {\"index\":0,\"value\":41}",
        "discarding   | 41,4 | {\"index\":0}"
      })
  void aLatePaneRestatesTheOnTimeOne(String accumulation, String values, String restates) {
    JsonNode outputs =
        simulate(
                """
                {"pipeline": {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
                              "allowedLateness": "5m", "accumulation": "%s"},
                 "steps": [{"events": [%s, %s]}, {"watermark": 60000}, {"events": [%s]}]}
                """
                    .formatted(
                        accumulation,
                        event("k", 1_000, 40),
                        event("k", 2_000, 1),
                        event("k", 3_000, 4)))
            .get("outputs");
    assertThat(String.join(",", texts(outputs, "/value"))).isEqualTo(values);
    JsonNode onTime = outputs.get(0);
    assertThat(onTime.get("pane").get("timing").stringValue()).isEqualTo("ON_TIME");
    assertThat(onTime.has("restates")).isFalse();
    JsonNode late = outputs.get(outputs.size() - 1);
    assertThat(late.get("pane").get("timing").stringValue()).isEqualTo("LATE");
    assertThat(late.get("restates").toString()).isEqualTo(restates);
    if (outputs.size() == 3) {
      assertThat(outputs.get(1).get("retraction").asBoolean()).isTrue();
      assertThat(outputs.get(1).has("restates")).as("a retraction restates nothing").isFalse();
    }
  }

  @Test
  void namedAggregatesRestateAnObjectByName() {
    JsonNode outputs =
        simulate(
                """
                {"pipeline": {"window": {"type": "fixed", "size": "1m"},
                              "aggregates": {"total": {"type": "sum"}, "n": {"type": "count"}},
                              "allowedLateness": "5m", "accumulation": "accumulating"},
                 "steps": [{"events": [%s]}, {"watermark": 60000}, {"events": [%s]}]}
                """
                    .formatted(event("k", 1_000, 41), event("k", 3_000, 4)))
            .get("outputs");
    assertThat(texts(outputs, "/value"))
        .containsExactly("{\"total\":41,\"n\":1}", "{\"total\":45,\"n\":2}");
    assertThat(outputs.get(1).get("restates").toString())
        .isEqualTo("{\"index\":0,\"value\":{\"total\":41,\"n\":1}}");
  }

  @Test
  void dropsElementsOfAFinishedWindowAsClosedAndWarns() {
    JsonNode result =
        simulate(
            """
            {"pipeline": {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
                          "trigger": {"type": "afterCount", "count": 1}},
             "steps": [{"events": [%s]}, {"events": [%s]}]}
            """
                .formatted(event("k", 1, 1), event("k", 2, 2)));
    assertThat(result.get("outputs")).hasSize(1);
    assertThat(result.get("outputs").get(0).get("final").asBoolean()).isTrue();
    assertThat(result.get("dropped").get(0).get("reason").stringValue()).isEqualTo("closed");
    assertThat(result.get("warnings").get(0).stringValue()).contains("GroupByKey");
  }

  @Test
  void rendersTheGlobalWindow() {
    JsonNode result =
        simulate(
            """
            {"pipeline": {"window": {"type": "global"}, "aggregate": {"type": "count"}},
             "steps": [{"events": [%s]}, {"watermark": "+inf"}]}
            """
                .formatted(event("k", 1, 0)));
    JsonNode pane = result.get("outputs").get(0);
    assertThat(pane.get("window").toString()).isEqualTo("{\"global\":true}");
    assertThat(pane.get("watermark").stringValue()).isEqualTo("+inf");
    assertThat(result.get("warnings").get(0).stringValue()).contains("end of time");
  }

  @Test
  void refusesAStepWithoutExactlyOneKind() {
    post("""
            {"pipeline": {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"}},
             "steps": [{"watermark": 1}, {"watermark": 2}, {"watermark": 3},
                       {"watermark": 4, "processingTime": 5}]}
            """)
        .expectStatus()
        .isBadRequest()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/steps/3")
        .jsonPath("$.errors[0].reason")
        .isEqualTo("must have exactly one of events, watermark, processingTime");
  }

  @Test
  void reportsPipelineViolationsUnderPipeline() {
    post("{\"pipeline\": {\"window\": {\"type\": \"fixed\"}}, \"steps\": []}")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/pipeline/window/size")
        .jsonPath("$.errors[1].path")
        .isEqualTo("/pipeline/aggregate");
  }

  @Test
  void refusesTooManySteps() {
    String steps = String.join(",", java.util.Collections.nCopies(10_001, "{\"watermark\":1}"));
    post("{\"pipeline\": {\"window\": {\"type\": \"global\"}, \"aggregate\": {\"type\": \"sum\"}},"
            + " \"steps\": ["
            + steps
            + "]}")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/steps")
        .jsonPath("$.errors[0].reason")
        .isEqualTo("must have at most 10000 steps (has 10001)");
  }

  @Test
  void refusesTooManyEvents() {
    String events = String.join(",", java.util.Collections.nCopies(100_001, "{}"));
    post("{\"pipeline\": {\"window\": {\"type\": \"global\"}, \"aggregate\": {\"type\": \"sum\"}},"
            + " \"steps\": [{\"events\": ["
            + events
            + "]}]}")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].reason")
        .isEqualTo("must hold at most 100000 events in total (has 100001)");
  }

  /**
   * A filter that builds more than an evaluation may (each of 30 iterations concatenating a 200
   * 000-character field with itself) fails its event, which is dead-lettered; the simulation
   * answers, and the next event is applied.
   */
  @Test
  void anExpressionThatBuildsTooMuchFailsItsEventNotTheService() {
    String list =
        java.util.stream.IntStream.rangeClosed(1, 30)
            .mapToObj(String::valueOf)
            .collect(java.util.stream.Collectors.joining(","));
    String big = "x".repeat(200_000);
    JsonNode result =
        simulate(
            """
            {"pipeline": {"window": {"type": "global"}, "aggregate": {"type": "count"},
                          "filter": "[%s].map(x, event.big + event.big).size() > 0"},
             "steps": [{"events": [{"key": "k", "timestamp": 0, "big": "%s"},
                                   {"key": "k", "timestamp": 1, "big": "small"}]},
                       {"watermark": "+inf"}]}
            """
                .formatted(list, big));
    assertThat(result.at("/counts/dropped/invalid").asLong()).isEqualTo(1);
    assertThat(result.at("/dropped/0/detail").stringValue())
        .contains("eventide.pipelines.max-expression-allocation");
    assertThat(result.at("/outputs/0/value").asLong()).isEqualTo(1);
  }

  @Test
  void refusesMalformedJsonAndOtherMediaTypes() {
    post("{\"pipeline\": ")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.title")
        .isEqualTo("Malformed JSON");
    client
        .post()
        .uri("/simulate")
        .contentType(MediaType.APPLICATION_XML)
        .bodyValue("<steps/>")
        .exchange()
        .expectStatus()
        .isEqualTo(415);
  }
}
