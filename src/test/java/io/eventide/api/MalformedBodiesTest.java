package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Every route that reads JSON answers a malformed body in Eventide's words, with the line and
 * column: never the parser's message, its classes and features, or its "Source: REDACTED".
 */
@LiveRuntimeTest
class MalformedBodiesTest {
  private static final String SUMS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"}, "stream": "%s"}
      """;

  /** A body whose second line ends in the middle of an object. */
  private static final String CUT = "{\"key\": \"k\",\n \"timestamp\": ";

  private static final String CUT_SAYS = "unexpected end of input at line 2, column 15";

  @LocalServerPort int port;

  private static void assertOurWords(JsonNode problem, String detail) {
    assertThat(problem.get("title").asString()).isEqualTo("Malformed JSON");
    assertThat(problem.get("detail").asString()).isEqualTo(detail);
    assertThat(problem.toString()).doesNotContain("Source", "REDACTED", "`", "Jackson");
  }

  private static JsonNode refused(
      LiveApi api, HttpMethod method, String path, String type, String body) {
    return api.send(method, path, MediaType.parseMediaType(type), body).expectProblem(400).body();
  }

  @Test
  void everyRouteSaysWhatIsWrongAndWhereInItsOwnWords() {
    LiveApi api = LiveApi.on(port);
    api.define("malformed", SUMS.formatted("malformed-stream"));
    for (String path : List.of("/pipelines/malformed/events", "/streams/malformed-stream/events")) {
      for (String type :
          List.of(
              "application/json",
              "application/cloudevents+json",
              "application/cloudevents-batch+json")) {
        JsonNode problem = refused(api, HttpMethod.POST, path, type, CUT);
        assertOurWords(problem, CUT_SAYS);
        assertThat(problem.get("line").asInt()).isEqualTo(2);
        assertThat(problem.get("column").asInt()).isEqualTo(15);
      }
      assertOurWords(
          refused(api, HttpMethod.POST, path, "application/x-ndjson", "hello\n{\"key\": 1,\n"),
          "no line of the body is JSON; its first line: 'hello' is not a JSON value at column 1");
    }
    assertOurWords(
        refused(api, HttpMethod.PUT, "/pipelines/other", "application/json", CUT), CUT_SAYS);
    assertOurWords(
        refused(api, HttpMethod.POST, "/pipelines/malformed/watermark", "application/json", CUT),
        CUT_SAYS);
    assertOurWords(
        refused(
            api, HttpMethod.POST, "/streams/malformed-stream/watermark", "application/json", CUT),
        CUT_SAYS);
    assertOurWords(
        refused(api, HttpMethod.POST, "/simulate", "application/json", "{\"steps\": [}"),
        "unexpected '}', ']' was expected at line 1, column 12");
    assertOurWords(
        refused(
            api,
            HttpMethod.POST,
            "/pipelines/malformed/events",
            "application/json",
            "{\"key\": \"k\", \"key\": \"j\"}"),
        "the property \"key\" is given twice at line 1, column 19");
    assertThat(api.elements("malformed")).isZero();
  }

  @Test
  void aLineOfAnNdjsonBodyThatIsNotJsonIsNamedByItsPositionAndColumn() {
    LiveApi api = LiveApi.on(port);
    api.define("malformed-lines", SUMS.formatted("malformed-lines"));
    JsonNode answer =
        api.ndjson(
            "malformed-lines",
            List.of(
                "{\"key\":\"k\",\"timestamp\":0,\"value\":1}",
                "{\"key\":\"k\",\"timestamp\":0,\"value\":1",
                "{\"key\":\"k\" \"timestamp\":0}"));
    assertThat(answer.get("rejected").toString())
        .isEqualTo(
            "[{\"index\":1,\"path\":\"\",\"reason\":\"invalid\",\"detail\":\"the line is not"
                + " JSON: unexpected end of input at column 35\"},"
                + "{\"index\":2,\"path\":\"\",\"reason\":\"invalid\",\"detail\":\"the line is not"
                + " JSON: unexpected '\\\"', ',' or '}' was expected at column 12\"}]");
  }
}
