package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import io.eventide.runtime.PaneStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Named aggregates, composite keys, CEL filters and computed fields over HTTP: the 400s of bad
 * definitions, and an SLO dashboard pipeline from producer to pane stream, results, the windows
 * view and dead letters.
 */
@LiveRuntimeTest
class RicherPipelinesApiTest {
  private static final String SLO =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "event": {"key": ["/region", "/endpoint"]},
       "filter": "event.status >= 500 && event.region != 'test'",
       "aggregates": {
         "errors": {"type": "count"},
         "kb": {"type": "sum", "expr": "event.bytes / 1024.0"},
         "p99": {"type": "quantiles", "field": "/latencyMs", "fractions": [0.99]}}}
      """;

  /** The string form of the key (eu, /pay|now), which the client percent-encodes in the URL. */
  private static final String PAY_NOW = "eu|/pay\\|now";

  @LocalServerPort int port;

  private static String request(String region, String endpoint, int status, String at, int bytes) {
    return """
        {"region": "%s", "endpoint": "%s", "status": %d, "timestamp": "%s",
         "bytes": %d, "latencyMs": %d}"""
        .formatted(region, endpoint, status, at, bytes, bytes / 10);
  }

  @Test
  void anSloPipelineCountsFiltersComputesAndKeysByRegionAndEndpoint() {
    LiveApi api = LiveApi.on(port);
    JsonNode defined = api.put("slo", SLO).expect(201).body();
    assertThat(defined.at("/event/key").toString()).isEqualTo("[\"/region\",\"/endpoint\"]");
    assertThat(defined.at("/aggregates/kb/expr").asString()).isEqualTo("event.bytes / 1024.0");
    assertThat(defined.get("filter").asString()).contains("event.status >= 500");
    try (PaneStream stream = api.panes("slo", "")) {
      JsonNode counts =
          api.events(
              "slo",
              LiveApi.array(
                  request("eu", "/pay|now", 503, "2026-01-01T10:00:01Z", 2048),
                  request("eu", "/pay|now", 500, "2026-01-01T10:00:02Z", 1024),
                  request("eu", "/pay|now", 200, "2026-01-01T10:00:03Z", 4096),
                  request("test", "/pay|now", 500, "2026-01-01T10:00:04Z", 4096),
                  "{\"region\": \"us\", \"status\": 502, \"timestamp\": \"2026-01-01T10:00:05Z\","
                      + " \"bytes\": 1, \"latencyMs\": 1}",
                  "{\"region\": \"us\", \"endpoint\": \"/x\", \"status\": 502,"
                      + " \"timestamp\": \"2026-01-01T10:00:05Z\", \"latencyMs\": 1}"));
      assertThat(counts.get("accepted").asInt()).isEqualTo(2);
      assertThat(counts.get("filtered").asInt()).isEqualTo(2);
      assertThat(counts.at("/dropped/invalid").asInt()).isEqualTo(2);

      JsonNode window = api.get("/pipelines/slo/windows?key=" + PAY_NOW).at("/windows/0");
      assertThat(window.get("key").toString())
          .isEqualTo("{\"region\":\"eu\",\"endpoint\":\"/pay|now\"}");
      assertThat(window.at("/contents/errors").asInt()).isEqualTo(2);
      assertThat(window.at("/contents/kb").asDouble()).isEqualTo(3.0);

      api.watermark("slo", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      JsonNode pane = stream.nextPane();
      assertThat(pane.get("key").toString())
          .isEqualTo("{\"region\":\"eu\",\"endpoint\":\"/pay|now\"}");
      assertThat(pane.at("/value/errors").asInt()).isEqualTo(2);
      assertThat(pane.at("/value/kb").asDouble()).isEqualTo(3.0);
      assertThat(pane.at("/value/p99/0.99").asDouble()).isEqualTo(204.0);
      assertThat(pane.get("partial").propertyNames()).containsExactly("p99");
    }
    JsonNode results = api.get("/pipelines/slo/results?key=" + PAY_NOW);
    assertThat(results.at("/results/0/value/errors").asInt()).isEqualTo(2);

    List<String> reasons = new ArrayList<>();
    api.get("/pipelines/slo/dead-letters")
        .get("deadLetters")
        .forEach(d -> reasons.add(d.get("path").asString() + " " + d.get("detail").asString()));
    assertThat(reasons)
        .anySatisfy(r -> assertThat(r).isEqualTo("/endpoint is required"))
        .anySatisfy(
            r ->
                assertThat(r)
                    .startsWith(" the expr of aggregates.kb failed:")
                    .contains("'bytes' is not present"));
  }

  @Test
  void simulateRunsTheSameRules() {
    LiveApi api = LiveApi.on(port);
    JsonNode result =
        api.send(
                HttpMethod.POST,
                "/simulate",
                MediaType.APPLICATION_JSON,
                """
                {"pipeline": %s,
                 "steps": [{"events": [%s, %s]}, {"watermark": "2026-01-01T10:01:00Z"}]}
                """
                    .formatted(
                        SLO,
                        request("eu", "/a", 500, "2026-01-01T10:00:01Z", 1024),
                        request("eu", "/a", 404, "2026-01-01T10:00:02Z", 1024)))
            .expect(200)
            .body();
    assertThat(result.at("/counts/filtered").asInt()).isEqualTo(1);
    assertThat(result.at("/outputs/0/key/endpoint").asString()).isEqualTo("/a");
    assertThat(result.at("/outputs/0/value/kb").asDouble()).isEqualTo(1.0);
  }

  private static String withAggregates(String aggregates) {
    return "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregates\": "
        + aggregates
        + "}";
  }

  private void assertRefused(String definition, String path, String reasonPart) {
    LiveApi api = LiveApi.on(port);
    JsonNode problem = api.put("refused", definition).expectProblem(400).body();
    List<String> found = new ArrayList<>();
    problem
        .get("errors")
        .forEach(e -> found.add(e.get("path").asString() + ": " + e.get("reason")));
    assertThat(found)
        .as("%s", problem)
        .anySatisfy(f -> assertThat(f).startsWith(path + ": ").contains(reasonPart));
    api.send(HttpMethod.GET, "/pipelines/refused", null, null).expect(404);
  }

  @Test
  void refusesBadNamesTooManyAggregatesAndBothForms() {
    assertRefused(
        withAggregates("{\"bad name\": {\"type\": \"count\"}}"),
        "/aggregates/bad name",
        "is not a valid aggregate name");
    assertRefused(withAggregates("{}"), "/aggregates", "at least one");
    StringBuilder many = new StringBuilder("{");
    for (int i = 0; i < 33; i++) {
      many.append(i == 0 ? "" : ",").append("\"a").append(i).append("\": {\"type\": \"count\"}");
    }
    assertRefused(withAggregates(many + "}"), "/aggregates", "at most 32 aggregates");
    assertRefused(
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"},"
            + " \"aggregates\": {\"n\": {\"type\": \"count\"}}}",
        "/aggregates",
        "must not be given with 'aggregate'");
    assertRefused(
        withAggregates("{\"n\": {\"type\": \"sum\", \"field\": \"/a\", \"expr\": \"1.0\"}}"),
        "/aggregates/n/expr",
        "must not be given with 'field'");
    assertRefused(
        withAggregates("{\"n\": {\"type\": \"count\", \"field\": \"/a\"}}"),
        "/aggregates/n/field",
        "count reads no value");
    assertRefused(
        withAggregates("{\"n\": {\"type\": \"median\"}}"), "/aggregates/n/type", "must be one of");
  }

  @Test
  void refusesDuplicateNamesAsJsonDoes() {
    LiveApi api = LiveApi.on(port);
    JsonNode problem =
        api.put(
                "refused",
                withAggregates("{\"n\": {\"type\": \"count\"}, \"n\": {\"type\": \"sum\"}}"))
            .expectProblem(400)
            .body();
    assertThat(problem.get("detail").asString()).startsWith("the property \"n\" is given twice");
  }

  @Test
  void refusesCelThatDoesNotCompileOrGivesTheWrongType() {
    String window = "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, ";
    assertRefused(
        window + "\"aggregate\": {\"type\": \"count\"}, \"filter\": \"event.status >= \"}",
        "/filter",
        "does not compile: at line 1, column 17");
    assertRefused(
        window + "\"aggregate\": {\"type\": \"count\"}, \"filter\": \"'yes'\"}",
        "/filter",
        "must give a boolean, but gives string");
    assertRefused(
        withAggregates("{\"p99\": {\"type\": \"quantiles\", \"expr\": \"event.ms > 3\"}}"),
        "/aggregates/p99/expr",
        "must give a number, but gives bool");
    assertRefused(
        withAggregates("{\"p99\": {\"type\": \"max\", \"expr\": \"other.ms\"}}"),
        "/aggregates/p99/expr",
        "undeclared reference to 'other'");
    assertRefused(
        window
            + "\"aggregate\": {\"type\": \"count\"}, \"filter\": \""
            + "(".repeat(40)
            + "true"
            + ")".repeat(40)
            + "\"}",
        "/filter",
        "max-expression-depth");
    assertRefused(
        window
            + "\"aggregate\": {\"type\": \"count\"}, \"filter\": \""
            + "true || ".repeat(200)
            + "true\"}",
        "/filter",
        "must be at most 1024 characters");
  }

  @Test
  void refusesCompositeKeysWhoseFieldsShareANameOrAreNoPointers() {
    String prefix =
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\":"
            + " {\"type\": \"count\"}, \"event\": {\"key\": ";
    assertRefused(prefix + "[\"/a/id\", \"/b/id\"]}}", "/event/key/1", "distinct names");
    assertRefused(prefix + "[\"/a\", \"b\"]}}", "/event/key/1", "must be a JSON pointer");
    assertRefused(prefix + "[]}}", "/event/key", "non-empty array");
  }
}
