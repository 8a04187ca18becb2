package io.eventide.api;

import static io.eventide.api.CloudEventsApiTest.BATCH;
import static io.eventide.api.CloudEventsApiTest.SALES;
import static io.eventide.api.CloudEventsApiTest.STRUCTURED;
import static io.eventide.api.CloudEventsApiTest.array;
import static io.eventide.api.CloudEventsApiTest.binary;
import static io.eventide.api.CloudEventsApiTest.post;
import static io.eventide.api.CloudEventsApiTest.sale;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A CloudEvent's required attributes over real HTTP: a post that is one CloudEvent (binary or
 * structured) whose {@code specversion}, {@code id}, {@code source} or {@code type} is missing or
 * wrong, or whose {@code time} is no RFC 3339 time, is refused with a 400 naming the header or the
 * attribute and why, and nothing of it is applied (no window, no dead letter, no watermark source);
 * a batch answers for each of its events, and only a body that is no batch of objects is a 400.
 */
@LiveRuntimeTest
class CloudEventAttributesApiTest {
  private static final String DATA = "{\"region\": \"eu\", \"amount\": 1}";

  @LocalServerPort int port;

  /** A wrong header, and the header and reason the problem names. */
  private record Refusal(Consumer<HttpHeaders> headers, String header, String reason) {}

  @Test
  void aBinaryEventWithAWrongRequiredHeaderIsRefusedWhole() {
    LiveApi api = LiveApi.on(port);
    api.define("ce-binary-400", SALES.formatted(""));
    String route = "/pipelines/ce-binary-400/events";
    Consumer<HttpHeaders> sale = binary("b1", "/shops/berlin", "10:00:00");
    List<Refusal> refusals =
        List.of(
            new Refusal(h -> h.remove("ce-id"), "ce-id", "is required"),
            new Refusal(
                h -> h.set("ce-specversion", "0.3"),
                "ce-specversion",
                "must be \"1.0\", the version Eventide reads (got '0.3')"),
            new Refusal(h -> h.set("ce-specversion", ""), "ce-specversion", "must not be empty"),
            new Refusal(h -> h.remove("ce-source"), "ce-source", "is required"),
            new Refusal(
                h -> h.set("ce-source", "/shops/%01"),
                "ce-source",
                "must not contain control characters (U+0001 at 7)"),
            new Refusal(h -> h.remove("ce-type"), "ce-type", "is required"),
            new Refusal(
                h -> h.set("ce-time", "noon"),
                "ce-time",
                "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'noon')"));
    // Whatever the post waits for or how strict it is: the request is at fault, not one event.
    for (String query : List.of("", "?wait=applied", "?strict=true")) {
      for (Refusal refusal : refusals) {
        JsonNode problem =
            post(
                    api,
                    route + query,
                    MediaType.APPLICATION_JSON,
                    DATA,
                    sale.andThen(refusal.headers()))
                .expectProblem(400)
                .body();
        assertThat(problem)
            .as(refusal.header() + query)
            .isEqualTo(invalidRequest(route, refusal.header(), refusal.reason()));
      }
    }
    assertNothingApplied(api, "ce-binary-400");

    // The same headers, right, are an event.
    JsonNode taken = post(api, route, MediaType.APPLICATION_JSON, DATA, sale).expect(202).body();
    assertThat(taken.get("accepted").asInt()).isEqualTo(1);
  }

  @Test
  void aStructuredEventWithAWrongRequiredAttributeIsRefusedWhole() {
    LiveApi api = LiveApi.on(port);
    api.define("ce-structured-400", SALES.formatted(""));
    String route = "/pipelines/ce-structured-400/events";
    String sale = sale("s1", "/shops/berlin", "10:00:00", "eu", 1);
    // Each row: the event, the attribute's pointer and why it is refused.
    String[][] rows = {
      {sale.replace("\"specversion\": \"1.0\", ", ""), "/specversion", "is required"},
      {sale.replace("\"1.0\"", "1.0"), "/specversion", "must be a string"},
      {sale.replace("\"id\": \"s1\"", "\"xid\": \"s1\""), "/id", "is required"},
      {sale.replace("\"s1\"", "\"\""), "/id", "must not be empty"},
      {
        sale.replace("\"s1\"", "\"" + "x".repeat(257) + "\""),
        "/id",
        "must be at most 256 characters (got 257)"
      },
      {sale.replace("\"source\"", "\"origin\""), "/source", "is required"},
      {sale.replace("\"com.example.sale\"", "null"), "/type", "is required"},
      {
        sale.replace("2026-01-01T10:00:00Z", "yesterday"),
        "/time",
        "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'yesterday')"
      },
      {
        sale.replace("\"2026-01-01T10:00:00Z\"", "1767261600000"),
        "/time",
        "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z, as a string"
      },
    };
    for (String query : List.of("", "?wait=applied", "?strict=true")) {
      for (String[] row : rows) {
        JsonNode problem = post(api, route + query, STRUCTURED, row[0]).expectProblem(400).body();
        assertThat(problem).as(row[0] + query).isEqualTo(invalidRequest(route, row[1], row[2]));
      }
    }
    assertNothingApplied(api, "ce-structured-400");
  }

  /**
   * The whole problem of a request refused for one field, as docs/cloudevents.md and openapi.yaml
   * show it.
   */
  private static JsonNode invalidRequest(String route, String path, String reason) {
    ObjectNode problem = JsonMapper.shared().createObjectNode();
    problem.put("title", "Invalid request");
    problem.put("status", 400);
    problem.put("detail", path + " " + reason);
    problem.put("instance", route);
    problem.putArray("errors").addObject().put("path", path).put("reason", reason);
    return problem;
  }

  @Test
  void aStreamRefusesOneWrongCloudEventBeforeAnyReaderAppliesIt() {
    LiveApi api = LiveApi.on(port);
    api.define("ce-stream-400", SALES.formatted(", \"stream\": \"ce-400\""));
    JsonNode problem =
        post(
                api,
                "/streams/ce-400/events",
                MediaType.APPLICATION_JSON,
                DATA,
                binary("t1", "/shops/berlin", "10:00:00").andThen(h -> h.remove("ce-id")))
            .expectProblem(400)
            .body();
    assertThat(problem.get("detail").asString()).isEqualTo("ce-id is required");
    post(
            api,
            "/streams/ce-400/events",
            STRUCTURED,
            sale("t2", "/shops/berlin", "10:00:00", "eu", 1).replace("\"1.0\"", "\"0.3\""))
        .expectProblem(400);
    assertNothingApplied(api, "ce-stream-400");
  }

  /**
   * A batch is many events: each wrong one is refused as the event's, at its index, and its
   * neighbours are applied (or, strict, the whole batch is refused with 422 naming them). Only a
   * body that is not a batch of objects is the request's fault.
   */
  @Test
  void aBatchAnswersForEachCloudEventAndIsRefusedOnlyForItsShape() {
    LiveApi api = LiveApi.on(port);
    api.define("ce-batch", SALES.formatted(""));
    String route = "/pipelines/ce-batch/events";
    String batch =
        array(
            sale("k1", "/shops/berlin", "10:00:01", "eu", 2),
            sale("k2", "/shops/berlin", "10:00:02", "eu", 100).replace("\"id\"", "\"xid\""),
            sale("k3", "/shops/berlin", "10:00:03", "eu", 3),
            sale("k4", "/shops/berlin", "10:00:04", "eu", 100)
                .replace("2026-01-01T10:00:04Z", "noon"),
            sale("k5", "/shops/berlin", "10:00:05", "eu", 100).replace("\"1.0\"", "\"0.3\""));

    JsonNode strict = post(api, route + "?strict=true", BATCH, batch).expectProblem(422).body();
    assertThat(strict.get("rejected").toString())
        .isEqualTo(
            "[{\"index\":1,\"path\":\"/id\",\"reason\":\"invalid\",\"detail\":\"is required\"},"
                + "{\"index\":3,\"path\":\"/time\",\"reason\":\"invalid\",\"detail\":\"must be an"
                + " RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'noon')\"},"
                + "{\"index\":4,\"path\":\"/specversion\",\"reason\":\"invalid\","
                + "\"detail\":\"must be \\\"1.0\\\", the version Eventide reads (got '0.3')\"}]");
    assertNothingApplied(api, "ce-batch");

    JsonNode lenient = post(api, route + "?wait=applied", BATCH, batch).expect(202).body();
    assertThat(lenient.get("accepted").asInt()).isEqualTo(2);
    assertThat(lenient.get("rejectedTotal").asInt()).isEqualTo(3);
    assertThat(lenient.get("rejected").toString()).isEqualTo(strict.get("rejected").toString());
    assertThat(api.get("/pipelines/ce-batch/results").at("/results/0/value").asDouble())
        .isEqualTo(5);
    assertThat(api.get("/pipelines/ce-batch/dead-letters").get("deadLetters")).hasSize(3);

    // An element that is not an object is no CloudEvent, and the body no batch of them.
    JsonNode notAnObject =
        post(api, route, BATCH, array(sale("k6", "/shops/berlin", "10:00:06", "eu", 1), "7", "[]"))
            .expectProblem(400)
            .body();
    assertThat(notAnObject)
        .isEqualTo(invalidRequest(route, "/1", "must be a CloudEvent, a JSON object"));
    JsonNode notABatch =
        post(api, route, BATCH, sale("k7", "/shops/berlin", "10:00:07", "eu", 1))
            .expectProblem(400)
            .body();
    assertThat(notABatch.get("detail").asString())
        .isEqualTo(
            "an application/cloudevents-batch+json body must be a JSON array of CloudEvents");
    assertThat(api.elements("ce-batch")).isEqualTo(2);
    assertThat(api.get("/pipelines/ce-batch/dead-letters").get("deadLetters")).hasSize(3);
  }

  /** No window, no dead letter and no watermark source: the pipeline saw nothing. */
  private static void assertNothingApplied(LiveApi api, String pipeline) {
    assertThat(api.elements(pipeline)).isZero();
    assertThat(api.get("/pipelines/" + pipeline + "/results").get("results")).isEmpty();
    assertThat(api.get("/pipelines/" + pipeline + "/dead-letters").get("deadLetters")).isEmpty();
    assertThat(api.get("/pipelines/" + pipeline + "/watermark").get("sources")).isEmpty();
  }
}
