package io.eventide.api;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The answer to an event post names what it refused ({@code rejected}, at most 100, and {@code
 * rejectedTotal}); {@code ?strict=true} refuses a body with an unreadable event whole.
 */
@LiveRuntimeTest
class EventAnswersTest {
  /** Minute windows, no allowed lateness: an event behind the watermark's window is expired. */
  private static final String SUMS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}";

  private static final String FUTURE = event("k", "2100-01-01T00:00:00Z", 1);

  @LocalServerPort int port;

  private LiveApi api() {
    return LiveApi.on(port);
  }

  private static String good(int i) {
    return "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}".formatted(i);
  }

  private static String keyless(int i) {
    return "{\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":%d}".formatted(i);
  }

  private static String badValue(int i) {
    return "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":\"x\"}".formatted(i);
  }

  private static List<Integer> indexes(JsonNode rejected) {
    List<Integer> out = new ArrayList<>();
    rejected.forEach(r -> out.add(r.get("index").asInt()));
    return out;
  }

  private LiveApi.Reply post(LiveApi api, String path, MediaType type, String body) {
    return api.send(HttpMethod.POST, path, type, body);
  }

  @Test
  void withClampAnEventFromTheFutureIsAcceptedCountedAndHoldsTheWatermarkToTheClock() {
    LiveApi api = api();
    api.define(
        "clamped",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
            + " \"sum\"}, \"watermark\": {\"onFutureSkew\": \"clamp\"}}");
    long before = System.currentTimeMillis();
    JsonNode answer = api.events("clamped", FUTURE);
    assertThat(answer.get("accepted").asInt()).isEqualTo(1);
    assertThat(answer.get("clamped").asInt()).isEqualTo(1);
    assertThat(answer.get("rejectedTotal").asInt()).isZero();
    assertThat(api.get("/pipelines/clamped").at("/watermark/onFutureSkew").asString())
        .isEqualTo("clamp");
    long watermark =
        java.time.Instant.parse(api.get("/pipelines/clamped/watermark").get("input").asString())
            .toEpochMilli();
    assertThat(watermark).isBetween(before, System.currentTimeMillis());

    LiveApi.Reply bad =
        api.put(
                "badclamp",
                "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
                    + " \"sum\"}, \"watermark\": {\"onFutureSkew\": \"drop\"}}")
            .expectProblem(400);
    assertThat(bad.body().toString()).contains("/watermark/onFutureSkew").contains("reject, clamp");
  }

  @Test
  void anArrayPostNamesEachRefusedEventByIndexFieldAndReason() {
    LiveApi api = api();
    api.define("answers", SUMS);
    JsonNode first = api.events("answers", event("k", "2026-01-01T10:05:00Z", 1));
    assertThat(first.get("rejectedTotal").asInt()).isZero();
    assertThat(first.get("rejected")).isEmpty();

    JsonNode answer =
        api.events(
            "answers",
            array(
                event("k", "2026-01-01T10:05:10Z", 1),
                badValue(1),
                event("k", "2026-01-01T10:00:30Z", 1),
                FUTURE,
                "[1, 2]"));
    assertThat(answer.get("accepted").asInt()).isEqualTo(1);
    assertThat(answer.get("rejectedTotal").asInt()).isEqualTo(4);
    JsonNode rejected = answer.get("rejected");
    assertThat(indexes(rejected)).containsExactly(1, 2, 3, 4);
    assertThat(rejected.get(0).get("path").asString()).isEqualTo("/value");
    assertThat(rejected.get(0).get("reason").asString()).isEqualTo("invalid");
    assertThat(rejected.get(0).get("detail").asString()).isEqualTo("must be a finite number");
    // Too late is not a field's fault: no path, the window's reason.
    assertThat(rejected.get(1).has("path")).isFalse();
    assertThat(rejected.get(1).get("reason").asString()).isEqualTo("expired");
    assertThat(rejected.get(1).get("detail").asString())
        .isEqualTo("the window is beyond its allowed lateness");
    assertThat(rejected.get(2).get("path").asString()).isEqualTo("/timestamp");
    assertThat(rejected.get(2).get("reason").asString()).isEqualTo("future");
    assertThat(rejected.get(3).get("path").asString()).isEmpty();
    assertThat(rejected.get(3).get("detail").asString()).isEqualTo("must be a JSON object");
    // The dead letters still take every refused event.
    assertThat(api.get("/pipelines/answers/dead-letters").get("deadLetters")).hasSize(4);
  }

  @Test
  void anNdjsonPostNamesRefusedLinesByTheirPositionInTheBodyAcrossBatches() {
    LiveApi api = api();
    api.define("ndjson-answers", SUMS);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2 * LiveRuntimeTest.NDJSON_BATCH + 5; i++) {
      lines.add(good(i));
    }
    lines.set(3, "not json");
    lines.set(17, badValue(17));
    lines.set(2 * LiveRuntimeTest.NDJSON_BATCH + 2, keyless(22));
    // A blank line is no event and takes no position.
    lines.add(5, "");
    JsonNode answer = api.ndjson("ndjson-answers", lines);
    assertThat(answer.get("rejectedTotal").asInt()).isEqualTo(3);
    JsonNode rejected = answer.get("rejected");
    assertThat(indexes(rejected)).containsExactly(3, 17, 2 * LiveRuntimeTest.NDJSON_BATCH + 2);
    assertThat(rejected.get(0).get("detail").asString())
        .isEqualTo("the line is not JSON: 'not' is not a JSON value at column 1");
    assertThat(rejected.get(1).get("path").asString()).isEqualTo("/value");
    assertThat(rejected.get(2).get("path").asString()).isEqualTo("/key");
  }

  @Test
  void theListStopsAtOneHundredWhateverTheBodyWhileTheTotalCountsEveryRefusal() {
    LiveApi api = api();
    api.define("answers-many-refused", SUMS);
    List<String> events = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      events.add(i % 2 == 0 ? keyless(i) : good(i));
    }
    JsonNode answer = api.events("answers-many-refused", array(events.toArray(String[]::new)));
    assertThat(answer.get("rejectedTotal").asInt()).isEqualTo(125);
    assertThat(answer.get("rejected")).hasSize(100);
    assertThat(indexes(answer.get("rejected")).get(99)).isEqualTo(198);

    // In NDJSON the first hundred too, however many batches they span.
    JsonNode ndjson = api.ndjson("answers-many-refused", events);
    assertThat(ndjson.get("rejectedTotal").asInt()).isEqualTo(125);
    assertThat(indexes(ndjson.get("rejected")).subList(0, 3)).containsExactly(0, 2, 4);
    assertThat(indexes(ndjson.get("rejected")).get(99)).isEqualTo(198);
  }

  @Test
  void aStrictPostWithAnUnreadableEventIsRefusedWholeAndAppliesNothing() {
    LiveApi api = api();
    api.define("answers-strict", SUMS);
    JsonNode problem =
        post(
                api,
                "/pipelines/answers-strict/events?strict=true",
                MediaType.APPLICATION_JSON,
                array(good(0), good(1), badValue(2), keyless(3), good(4)))
            .expectProblem(422)
            .body();
    assertThat(problem.get("rejectedTotal").asInt()).isEqualTo(2);
    assertThat(indexes(problem.get("rejected"))).containsExactly(2, 3);
    assertThat(problem.at("/rejected/0/path").asString()).isEqualTo("/value");
    assertThat(problem.at("/rejected/1/path").asString()).isEqualTo("/key");
    assertThat(api.elements("answers-strict")).isZero();
    assertThat(api.get("/pipelines/answers-strict/dead-letters").get("deadLetters")).isEmpty();

    // NDJSON is judged whole, not batch by batch: the bad line is in the third batch.
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2 * LiveRuntimeTest.NDJSON_BATCH + 5; i++) {
      lines.add(i == 2 * LiveRuntimeTest.NDJSON_BATCH + 1 ? "not json" : good(i));
    }
    JsonNode ndjson =
        post(
                api,
                "/pipelines/answers-strict/events?strict=true",
                LiveApi.NDJSON,
                String.join("\n", lines))
            .expectProblem(422)
            .body();
    assertThat(indexes(ndjson.get("rejected")))
        .containsExactly(2 * LiveRuntimeTest.NDJSON_BATCH + 1);
    assertThat(api.elements("answers-strict")).isZero();

    // An event from the future is readable: strict takes the body and names it.
    JsonNode taken =
        post(
                api,
                "/pipelines/answers-strict/events?strict=true&wait=applied",
                MediaType.APPLICATION_JSON,
                array(good(0), FUTURE))
            .expect(202)
            .body();
    assertThat(taken.get("accepted").asInt()).isEqualTo(1);
    assertThat(taken.at("/rejected/0/reason").asString()).isEqualTo("future");
    lines.set(2 * LiveRuntimeTest.NDJSON_BATCH + 1, good(99));
    JsonNode whole =
        post(
                api,
                "/pipelines/answers-strict/events?strict=true",
                LiveApi.NDJSON,
                String.join("\n", lines))
            .expect(202)
            .body();
    assertThat(whole.get("accepted").asInt()).isEqualTo(lines.size());
    assertThat(
            post(
                    api,
                    "/pipelines/answers-strict/events?strict=false",
                    MediaType.APPLICATION_JSON,
                    array(keyless(0)))
                .expect(202)
                .body()
                .get("rejectedTotal")
                .asInt())
        .isEqualTo(1);
  }

  @Test
  void aPostToAStreamNamesWhatEachPipelineRefusedAsItReadsTheBody() {
    LiveApi api = api();
    api.define(
        "answers-values",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
            + " \"sum\"}, \"stream\": \"answers\"}");
    api.define(
        "answers-bytes",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
            + " \"sum\"}, \"event\": {\"value\": \"/bytes\"}, \"stream\": \"answers\"}");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < LiveRuntimeTest.NDJSON_BATCH + 5; i++) {
      lines.add("{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1,\"bytes\":2}");
    }
    // Readable by the pipeline of /value only, and in the second batch.
    lines.set(
        LiveRuntimeTest.NDJSON_BATCH + 2,
        "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}");
    lines.set(1, "not json");
    JsonNode answer =
        post(api, "/streams/answers/events", LiveApi.NDJSON, String.join("\n", lines))
            .expect(202)
            .body()
            .get("pipelines");
    assertThat(indexes(answer.at("/answers-values/rejected"))).containsExactly(1);
    assertThat(indexes(answer.at("/answers-bytes/rejected")))
        .containsExactly(1, LiveRuntimeTest.NDJSON_BATCH + 2);
    assertThat(answer.at("/answers-bytes/rejected/1/path").asString()).isEqualTo("/bytes");
    assertThat(answer.at("/answers-bytes/rejectedTotal").asInt()).isEqualTo(2);
  }

  @Test
  void aStrictPostToAStreamReachesNoPipelineUnlessEveryReaderCanReadAllOfIt() {
    LiveApi api = api();
    api.define(
        "strict-stream-values",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
            + " \"sum\"}, \"stream\": \"strict-answers\"}");
    api.define(
        "strict-bytes",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\":"
            + " \"sum\"}, \"event\": {\"value\": \"/bytes\"}, \"stream\": \"strict-answers\"}");
    String both = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1,\"bytes\":2}";
    String valueOnly = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}";
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < LiveRuntimeTest.NDJSON_BATCH + 5; i++) {
      lines.add(i == LiveRuntimeTest.NDJSON_BATCH + 3 ? valueOnly : both);
    }
    JsonNode problem =
        post(
                api,
                "/streams/strict-answers/events?strict=true",
                LiveApi.NDJSON,
                String.join("\n", lines))
            .expectProblem(422)
            .body();
    assertThat(problem.at("/failed/strict-bytes/status").asInt()).isEqualTo(422);
    assertThat(problem.at("/failed/strict-bytes/rejected/0/index").asInt())
        .isEqualTo(LiveRuntimeTest.NDJSON_BATCH + 3);
    assertThat(problem.at("/failed/strict-bytes/rejected/0/path").asString()).isEqualTo("/bytes");
    // The pipeline that could read every line took none of them either.
    assertThat(problem.at("/failed/strict-stream-values").isMissingNode()).isTrue();
    assertThat(api.elements("strict-stream-values")).isZero();
    assertThat(api.elements("strict-bytes")).isZero();

    post(api, "/streams/strict-answers/events?strict=maybe", MediaType.APPLICATION_JSON, both)
        .expectProblem(400);
    JsonNode taken =
        post(api, "/streams/strict-answers/events?strict=true", MediaType.APPLICATION_JSON, both)
            .expect(202)
            .body();
    assertThat(taken.at("/pipelines/strict-bytes/accepted").asInt()).isEqualTo(1);
    assertThat(api.elements("strict-stream-values")).isEqualTo(1);
  }

  @Test
  void aStrictValueOtherThanTrueOrFalseIsA400NamingTheParameterAndAppliesNothing() {
    LiveApi api = api();
    api.define("answers-strict-values", SUMS);
    for (MediaType type : List.of(MediaType.APPLICATION_JSON, LiveApi.NDJSON)) {
      JsonNode problem =
          post(api, "/pipelines/answers-strict-values/events?strict=maybe", type, good(0))
              .expectProblem(400)
              .body();
      assertThat(problem.at("/errors/0/path").asString()).isEqualTo("strict");
      assertThat(problem.at("/errors/0/reason").asString()).contains("true or false", "maybe");
    }
    assertThat(api.elements("answers-strict-values")).isZero();
  }
}
