package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.BinaryCloudEvent;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * CloudEvents on both event routes, over real HTTP: structured ({@code
 * application/cloudevents+json}), batched ({@code application/cloudevents-batch+json}) and binary
 * ({@code ce-} headers) events; their ids de-duplicate, their sources are watermark sources, their
 * times are the events' times, and what is wrong with one is named by its attribute.
 */
@LiveRuntimeTest
class CloudEventsApiTest {
  static final MediaType STRUCTURED = MediaType.parseMediaType("application/cloudevents+json");
  static final MediaType BATCH = MediaType.parseMediaType("application/cloudevents-batch+json");

  /** Sales summed per region, the amounts in the events' data. */
  static final String SALES =
      """
      {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "sum"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating", "event": {"key": "/region", "value": "/amount"}%s}
      """;

  @LocalServerPort int port;

  private LiveApi api() {
    return LiveApi.on(port);
  }

  /** A sale as a CloudEvent in the JSON event format. */
  static String sale(String id, String source, String time, String region, int amount) {
    return """
        {"specversion": "1.0", "id": "%s", "source": "%s", "type": "com.example.sale",
         "time": "2026-01-01T%sZ", "datacontenttype": "application/json",
         "data": {"region": "%s", "amount": %d}}
        """
        .formatted(id, source, time, region, amount);
  }

  static String array(String... events) {
    return "[" + String.join(",", events) + "]";
  }

  /** The headers of a binary-mode sale; the caller adds or removes its own. */
  static Consumer<HttpHeaders> binary(String id, String source, String time) {
    return BinaryCloudEvent.headers(id, source, "2026-01-01T" + time + "Z");
  }

  static LiveApi.Reply post(
      LiveApi api, String route, MediaType type, String body, Consumer<HttpHeaders> headers) {
    return api.send(HttpMethod.POST, route, type, body, headers);
  }

  static LiveApi.Reply post(LiveApi api, String route, MediaType type, String body) {
    return post(api, route, type, body, h -> {});
  }

  @Test
  void aPipelineTakesStructuredBatchedAndBinaryEvents() {
    LiveApi api = api();
    api.define("ce-sales", SALES.formatted(""));
    String route = "/pipelines/ce-sales/events";

    JsonNode one =
        post(api, route, STRUCTURED, sale("s1", "/shops/berlin", "10:00:01", "eu", 2))
            .expect(202)
            .body();
    assertThat(one.get("accepted").asInt()).isEqualTo(1);

    String idless = sale("s9", "/shops/berlin", "10:00:02", "eu", 100).replace("\"id\"", "\"xid\"");
    JsonNode batch =
        post(
                api,
                route,
                BATCH,
                array(
                    sale("s2", "/shops/berlin", "10:00:03", "eu", 3),
                    sale("s3", "/shops/paris", "10:00:04", "eu", 5),
                    idless))
            .expect(202)
            .body();
    assertThat(batch.get("accepted").asInt()).isEqualTo(2);
    assertThat(batch.get("rejectedTotal").asInt()).isEqualTo(1);
    assertThat(batch.get("rejected").get(0).toString())
        .isEqualTo(
            "{\"index\":2,\"path\":\"/id\",\"reason\":\"invalid\",\"detail\":\"is required\"}");

    // Binary mode: the attributes in ce- headers (percent-encoded), the data as the body.
    JsonNode binary =
        post(
                api,
                route,
                MediaType.APPLICATION_JSON,
                "{\"region\": \"eu\", \"amount\": 7}",
                binary("s4", "/shops/caf%C3%A9", "10:00:05"))
            .expect(202)
            .body();
    assertThat(binary.get("accepted").asInt()).isEqualTo(1);

    // The id is the event's: sent again, in whatever mode, it is a duplicate.
    JsonNode again =
        post(
                api,
                route,
                MediaType.APPLICATION_JSON,
                "{\"region\": \"eu\", \"amount\": 2}",
                binary("s1", "/shops/berlin", "10:00:01"))
            .expect(202)
            .body();
    assertThat(again.get("duplicates").asInt()).isEqualTo(1);
    assertThat(again.get("accepted").asInt()).isZero();

    JsonNode results = api.get("/pipelines/ce-sales/results").get("results");
    assertThat(results).hasSize(1);
    assertThat(results.get(0).get("value").asDouble()).isEqualTo(17);

    // Each source is a watermark source, at its latest time.
    JsonNode sources = api.get("/pipelines/ce-sales/watermark").get("sources");
    Map<String, String> watermarks = new java.util.TreeMap<>();
    sources.forEach(s -> watermarks.put(s.get("source").asString(), s.get("watermark").asString()));
    assertThat(watermarks)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "/shops/berlin", "2026-01-01T10:00:03.000Z",
                "/shops/paris", "2026-01-01T10:00:04.000Z",
                "/shops/café", "2026-01-01T10:00:05.000Z"));

    // The dead letter keeps the CloudEvent as it came.
    JsonNode letter = api.get("/pipelines/ce-sales/dead-letters").at("/deadLetters/0");
    assertThat(letter.get("path").asString()).isEqualTo("/id");
    assertThat(letter.at("/event/xid").asString()).isEqualTo("s9");
    assertThat(letter.at("/event/data/amount").asInt()).isEqualTo(100);
  }

  @Test
  void whatIsWrongWithACloudEventIsNamedByItsAttribute() {
    LiveApi api = api();
    api.define("ce-refusals", SALES.formatted(""));
    String route = "/pipelines/ce-refusals/events";

    // Binary data that is not JSON, a time neither given nor in the data, a time too far ahead:
    // what is wrong is the event's data, refused as the event's (CloudEventAttributesApiTest has
    // the attributes that refuse the request).
    JsonNode xml =
        post(
                api,
                route,
                MediaType.APPLICATION_XML,
                "<sale region=\"eu\"/>",
                binary("b2", "/shops/berlin", "10:00:00"))
            .expect(202)
            .body();
    assertThat(xml.at("/rejected/0/path").asString()).isEqualTo("/datacontenttype");
    assertThat(xml.at("/rejected/0/detail").asString()).contains("got 'application/xml'");
    JsonNode timeless =
        post(
                api,
                route,
                STRUCTURED,
                sale("b3", "/shops/berlin", "10:00:00", "eu", 1)
                    .replace("\"time\": \"2026-01-01T10:00:00Z\",", ""))
            .expect(202)
            .body();
    assertThat(timeless.at("/rejected/0").toString())
        .isEqualTo(
            "{\"index\":0,\"path\":\"/time\",\"reason\":\"invalid\","
                + "\"detail\":\"is required, or a timestamp at /data/timestamp\"}");

    // Too far ahead of the wall clock: the time to blame is the attribute.
    JsonNode future =
        post(
                api,
                route,
                STRUCTURED,
                sale("b3f", "/shops/berlin", "10:00:00", "eu", 1).replace("2026-", "2999-"))
            .expect(202)
            .body();
    assertThat(future.at("/rejected/0/reason").asString()).isEqualTo("future");
    assertThat(future.at("/rejected/0/path").asString()).isEqualTo("/time");

    // Strict: one event of the batch that is no CloudEvent refuses all of it.
    JsonNode strict =
        post(
                api,
                route + "?strict=true",
                BATCH,
                array(
                    sale("b4", "/shops/berlin", "10:00:00", "eu", 1),
                    sale("b5", "/shops/berlin", "10:00:00", "eu", 1).replace("\"1.0\"", "\"0.3\"")))
            .expectProblem(422)
            .body();
    assertThat(strict.at("/rejected/0/index").asInt()).isEqualTo(1);
    assertThat(strict.at("/rejected/0/path").asString()).isEqualTo("/specversion");
    post(
            api,
            route + "?strict=true",
            MediaType.APPLICATION_JSON,
            "{\"amount\": 1}",
            binary("b6", "/shops/berlin", "10:00:00"))
        .expectProblem(422);

    // Bodies that are not what their content type says are the request's: 400.
    JsonNode notOne =
        post(api, route, STRUCTURED, array(sale("b7", "/s", "10:00:00", "eu", 1)))
            .expectProblem(400)
            .body();
    assertThat(notOne.get("detail").asString())
        .isEqualTo(
            "an application/cloudevents+json body must be one CloudEvent, a JSON object; send"
                + " several as application/cloudevents-batch+json");
    post(api, route, BATCH, sale("b8", "/s", "10:00:00", "eu", 1)).expectProblem(400);
    JsonNode malformed =
        post(
                api,
                route,
                MediaType.APPLICATION_JSON,
                "{\"region\": \"eu\",",
                binary("b9", "/shops/berlin", "10:00:00"))
            .expectProblem(400)
            .body();
    assertThat(malformed.get("detail").asString())
        .isEqualTo("unexpected end of input at line 1, column 17");
    JsonNode badHeader =
        post(
                api,
                route,
                MediaType.APPLICATION_JSON,
                "{\"region\": \"eu\", \"amount\": 1}",
                binary("b10", "/caf%C3%28", "10:00:00"))
            .expectProblem(400)
            .body();
    assertThat(badHeader.at("/errors/0/path").asString()).isEqualTo("ce-source");
    // Without ce- headers another content type is what it always was.
    post(api, route, MediaType.APPLICATION_XML, "<sale/>").expect(415);

    assertThat(api.elements("ce-refusals")).isZero();
  }

  @Test
  void aStreamTakesCloudEventsForEveryReader() {
    LiveApi api = api();
    api.define("ce-stream-sales", SALES.formatted(", \"stream\": \"ce-shop\""));
    api.define(
        "ce-stream-count",
        """
        {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "count"},
         "event": {"key": "/region"}, "stream": "ce-shop"}
        """);
    String route = "/streams/ce-shop/events";
    List<JsonNode> answers = new ArrayList<>();
    answers.add(
        post(
                api,
                route,
                BATCH,
                array(
                    sale("t1", "/shops/berlin", "10:00:01", "eu", 2),
                    sale("t2", "/shops/paris", "10:00:02", "eu", 3)))
            .expect(202)
            .body());
    answers.add(
        post(api, route, STRUCTURED, sale("t3", "/shops/berlin", "10:00:03", "eu", 4))
            .expect(202)
            .body());
    answers.add(
        post(
                api,
                route,
                MediaType.APPLICATION_JSON,
                "{\"region\": \"eu\", \"amount\": 5}",
                binary("t4", "/shops/paris", "10:00:04"))
            .expect(202)
            .body());
    for (JsonNode answer : answers) {
      for (String pipeline : List.of("ce-stream-sales", "ce-stream-count")) {
        assertThat(answer.at("/pipelines/" + pipeline + "/rejectedTotal").asInt()).isZero();
      }
    }
    assertThat(api.get("/pipelines/ce-stream-sales/results").at("/results/0/value").asDouble())
        .isEqualTo(14);
    assertThat(api.elements("ce-stream-count")).isEqualTo(4);

    JsonNode strict =
        post(
                api,
                route + "?strict=true",
                BATCH,
                array(
                    sale("t5", "/shops/berlin", "10:00:05", "eu", 1)
                        .replace("\"type\"", "\"kind\"")))
            .expectProblem(422)
            .body();
    assertThat(strict.at("/failed/ce-stream-sales/rejected/0/path").asString()).isEqualTo("/type");
    assertThat(api.elements("ce-stream-count")).isEqualTo(4);
  }
}
