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
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/** POST /pipelines/{name}/events: formats, invalid events, refused bodies and limits. */
@LiveRuntimeTest
class IngestApiTest {
  private static final String COUNTS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}";

  @LocalServerPort int port;

  private LiveApi api() {
    return LiveApi.on(port);
  }

  private static List<String> lines(int n, String pad) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add(
          "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":%d,\"pad\":\"%s\"}"
              .formatted(i, pad));
    }
    return lines;
  }

  @Test
  void waitingForAppliedEventsIsWhatOneProcessDoesAnywayAndAnyOtherWaitIsRefused() {
    LiveApi api = api();
    api.define("waits", COUNTS);
    String body = array(event("k", "2026-01-01T10:00:00Z", 1), "{\"timestamp\": 1}");
    JsonNode applied =
        api.send(
                HttpMethod.POST,
                "/pipelines/waits/events?wait=applied",
                MediaType.APPLICATION_JSON,
                body)
            .expect(202)
            .body();
    assertThat(applied.get("accepted").asInt()).isEqualTo(1);
    assertThat(applied.at("/dropped/invalid").asInt()).isEqualTo(1);
    assertThat(applied.get("applied").asBoolean()).isTrue();
    JsonNode ndjson =
        api.send(
                HttpMethod.POST,
                "/pipelines/waits/events?wait=applied",
                LiveApi.NDJSON,
                String.join("\n", lines(3, "")))
            .expect(202)
            .body();
    assertThat(ndjson.get("accepted").asInt()).isEqualTo(3);
    assertThat(ndjson.get("applied").asBoolean()).isTrue();
    // Without the wait the answer is as it always was.
    assertThat(api.events("waits", body).has("applied")).isFalse();

    JsonNode refused =
        api.send(
                HttpMethod.POST,
                "/pipelines/waits/events?wait=logged",
                MediaType.APPLICATION_JSON,
                body)
            .expectProblem(400)
            .body();
    assertThat(refused.at("/errors/0/path").asString()).isEqualTo("wait");
    assertThat(api.elements("waits")).isEqualTo(5);
  }

  @Test
  void invalidEventsGoToTheDeadLettersWithTheirPathAndReasonWhileTheRestIsApplied() {
    LiveApi api = api();
    api.define(
        "mixed",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}");
    JsonNode result =
        api.events(
            "mixed",
            array(
                event("k", "2026-01-01T10:00:00Z", 1),
                "{\"timestamp\": 1767261600000, \"value\": 1}",
                "{\"key\": \"k\", \"timestamp\": \"yesterday\", \"value\": 1}",
                "{\"key\": \"k\", \"timestamp\": \"2026-01-01T10:00:00Z\", \"value\": \"1\"}",
                "[1, 2]"));
    assertThat(result.get("accepted").asInt()).isEqualTo(1);
    assertThat(result.at("/dropped/invalid").asInt()).isEqualTo(4);

    JsonNode letters = api.get("/pipelines/mixed/dead-letters").get("deadLetters");
    assertThat(letters).hasSize(4);
    // Newest first.
    assertThat(letters.get(0).get("path").asString()).isEmpty();
    assertThat(letters.get(0).get("detail").asString()).isEqualTo("must be a JSON object");
    assertThat(letters.get(1).get("path").asString()).isEqualTo("/value");
    assertThat(letters.get(1).get("detail").asString()).isEqualTo("must be a finite number");
    assertThat(letters.get(2).get("path").asString()).isEqualTo("/timestamp");
    assertThat(letters.get(2).get("detail").asString()).contains("ISO-8601");
    assertThat(letters.get(3).get("path").asString()).isEqualTo("/key");
    assertThat(letters.get(3).get("detail").asString()).isEqualTo("is required");
    assertThat(letters.get(3).get("event").toString())
        .isEqualTo("{\"timestamp\":1767261600000,\"value\":1}");
    for (JsonNode letter : letters) {
      assertThat(letter.get("reason").asString()).isEqualTo("invalid");
      assertThat(letter.has("at")).isTrue();
    }
    assertThat(api.get("/pipelines/mixed/dead-letters?limit=2").get("deadLetters")).hasSize(2);
    api.send(HttpMethod.GET, "/pipelines/mixed/dead-letters?limit=0", null, null)
        .expectProblem(400);
  }

  @Test
  void aLargeNdjsonUploadIsAppliedInBatchesAndAMalformedLineIsOnlyAnInvalidEvent() {
    LiveApi api = api();
    api.define("bulk", COUNTS);
    List<String> lines = lines(5 * LiveRuntimeTest.NDJSON_BATCH + 3, "");
    lines.set(17, "{\"key\": \"k\", oops");
    lines.add(31, "");
    JsonNode result = api.ndjson("bulk", lines);
    assertThat(result.get("accepted").asInt()).isEqualTo(5 * LiveRuntimeTest.NDJSON_BATCH + 2);
    assertThat(result.at("/dropped/invalid").asInt()).isEqualTo(1);
    assertThat(api.elements("bulk")).isEqualTo(5 * LiveRuntimeTest.NDJSON_BATCH + 2);

    JsonNode letter = api.get("/pipelines/bulk/dead-letters").at("/deadLetters/0");
    assertThat(letter.get("reason").asString()).isEqualTo("invalid");
    assertThat(letter.get("detail").asString())
        .isEqualTo(
            "the line is not JSON: unexpected 'o', a property name in double quotes was expected"
                + " at column 14");
    assertThat(letter.get("event").asString()).isEqualTo("{\"key\": \"k\", oops");
  }

  @Test
  void aBodyThatIsNotJsonIsRefusedWholeAndAppliesNothing() {
    LiveApi api = api();
    api.define("strict", COUNTS);
    JsonNode problem =
        api.postEvents(
                "strict",
                MediaType.APPLICATION_JSON,
                "[" + event("k", "2026-01-01T10:00:00Z", 1) + ",")
            .expectProblem(400)
            .body();
    assertThat(problem.get("title").asString()).isEqualTo("Malformed JSON");
    assertThat(problem.get("line").asInt()).isEqualTo(1);
    api.postEvents("strict", MediaType.APPLICATION_JSON, "42").expectProblem(400);
    api.postEvents("strict", LiveApi.NDJSON, "hello\nworld\n").expectProblem(400);
    api.postEvents("strict", MediaType.TEXT_PLAIN, "hello").expectProblem(415);
    api.send(
            HttpMethod.POST,
            "/pipelines/strict/watermark",
            MediaType.APPLICATION_JSON,
            "{\"source\": \"s1\"}")
        .expectProblem(400);

    assertThat(api.elements("strict")).isZero();
    assertThat(api.get("/pipelines/strict/dead-letters").get("deadLetters")).isEmpty();
  }

  @Test
  void anUnknownPipelineIsA404() {
    LiveApi api = api();
    api.postEvents("nowhere", MediaType.APPLICATION_JSON, event("k", "2026-01-01T10:00:00Z", 1))
        .expectProblem(404);
    api.postEvents("nowhere", LiveApi.NDJSON, event("k", "2026-01-01T10:00:00Z", 1))
        .expectProblem(404);
    api.send(
            HttpMethod.POST,
            "/pipelines/nowhere/watermark",
            MediaType.APPLICATION_JSON,
            "{\"watermark\": 0}")
        .expectProblem(404);
    for (String output : List.of("watermark", "results", "windows", "dead-letters", "panes")) {
      api.send(HttpMethod.GET, "/pipelines/nowhere/" + output, null, null).expectProblem(404);
    }
  }

  @Test
  void aBodyDeclaredLargerThanTheLimitIsRefusedBeforeAnythingIsApplied() {
    LiveApi api = api();
    api.define("declared", COUNTS);
    String pad = "x".repeat(1000);
    String body = String.join("\n", lines(LiveRuntimeTest.MAX_BODY_BYTES / 1000, pad));
    for (MediaType type : List.of(MediaType.APPLICATION_JSON, LiveApi.NDJSON)) {
      String sent = type.equals(LiveApi.NDJSON) ? body : "[" + body.replace("\n", ",") + "]";
      JsonNode problem = api.postEvents("declared", type, sent).expectProblem(413).body();
      assertThat(problem.get("limitBytes").asLong()).isEqualTo(LiveRuntimeTest.MAX_BODY_BYTES);
      assertThat(problem.get("detail").asString()).endsWith("nothing applied");
    }
    assertThat(api.elements("declared")).isZero();
  }

  @Test
  void aStreamedJsonBodyPastTheLimitAppliesNothing() {
    LiveApi api = api();
    api.define("streamedjson", COUNTS);
    List<String> events = lines(LiveRuntimeTest.MAX_BODY_BYTES / 1000, "x".repeat(1000));
    Flux<String> chunks =
        Flux.concat(Flux.just("["), Flux.fromIterable(events).map(e -> e + ","), Flux.just("{}]"));
    api.postEvents("streamedjson", MediaType.APPLICATION_JSON, chunks).expectProblem(413);
    assertThat(api.elements("streamedjson")).isZero();
  }

  @Test
  void aStreamedNdjsonBodyPastTheLimitIsCutAndTheAnswerSaysWhatWasApplied() {
    LiveApi api = api();
    api.define("streamed", COUNTS);
    List<String> lines = lines(LiveRuntimeTest.MAX_BODY_BYTES / 1000 + 20, "x".repeat(1000));
    JsonNode problem =
        api.postEvents("streamed", LiveApi.NDJSON, Flux.fromIterable(lines).map(l -> l + "\n"))
            .expectProblem(413)
            .body();
    assertThat(problem.get("detail").asString()).contains("cut");
    long applied = problem.at("/applied/accepted").asLong();
    // Whole batches only, and exactly what the pipeline now holds.
    assertThat(applied % LiveRuntimeTest.NDJSON_BATCH).isZero();
    assertThat(applied).isLessThan(lines.size());
    assertThat(api.elements("streamed")).isEqualTo(applied);
  }

  @Test
  void onlyAnAppliedEventMakesItsIdADuplicate() {
    LiveApi api = api();
    api.define("ids", COUNTS);
    String first = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:30Z\",\"id\":\"a\"}";
    String expired = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T09:00:00Z\",\"id\":\"b\"}";
    assertThat(api.events("ids", array(first, first)).get("duplicates").asInt()).isEqualTo(1);
    api.watermark("ids", "{\"watermark\":\"2026-01-01T10:00:00Z\"}");
    // Dropped as expired, twice: a dropped event leaves no id behind.
    for (int i = 0; i < 2; i++) {
      JsonNode r = api.events("ids", expired);
      assertThat(r.at("/dropped/expired").asInt()).isEqualTo(1);
      assertThat(r.get("duplicates").asInt()).isZero();
    }
    assertThat(api.events("ids", first).get("duplicates").asInt()).isEqualTo(1);
  }

  @Test
  void aDeadLetterKeepsAtMost64KiCharactersOfItsEventAndSaysHowLongItWas() {
    LiveApi api = api();
    api.define("big-letters", COUNTS);
    String huge = "x".repeat(100_000);
    String unkeyed = "{\"timestamp\":\"2026-01-01T10:00:00Z\",\"pad\":\"%s\"}".formatted(huge);
    api.ndjson("big-letters", List.of(lines(1, "").get(0), huge, unkeyed));
    JsonNode letters = api.get("/pipelines/big-letters/dead-letters").get("deadLetters");
    assertThat(letters).hasSize(2);
    for (JsonNode letter : letters) {
      assertThat(letter.get("event").asString()).hasSize(65_536);
      assertThat(letter.get("truncated").asBoolean()).isTrue();
    }
    // Newest first: the line that is not JSON, then the event without a key.
    assertThat(letters.get(0).get("eventLength").asInt()).isEqualTo(100_000);
    assertThat(letters.get(1).get("path").asString()).isEqualTo("/key");
    assertThat(letters.get(1).get("eventLength").asInt()).isEqualTo(unkeyed.length());
    assertThat(letters.get(1).get("event").asString()).startsWith("{\"timestamp\":");
  }

  @Test
  void anIdIsAtMost256CharactersOrItsEventIsInvalid() {
    LiveApi api = api();
    api.define("long-ids", COUNTS);
    String longId =
        "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:30Z\",\"id\":\"%s\"}"
            .formatted("i".repeat(257));
    JsonNode r = api.events("long-ids", longId);
    assertThat(r.at("/dropped/invalid").asInt()).isEqualTo(1);
    JsonNode letter = api.get("/pipelines/long-ids/dead-letters").at("/deadLetters/0");
    assertThat(letter.get("path").asString()).isEqualTo("/id");
    assertThat(letter.get("detail").asString()).contains("256");
  }

  @Test
  void anIdWhoseWindowNeverClosesIsForgottenOnceTheWatermarkIsAnIdRetentionPastIt() {
    LiveApi api = api();
    api.define(
        "global-ids", "{\"window\": {\"type\": \"global\"}, \"aggregate\": {\"type\": \"count\"}}");
    String first = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"id\":\"a\"}";
    api.events("global-ids", first);
    // Within the retention the id is still a duplicate, although the window never closes.
    api.watermark("global-ids", "{\"watermark\":\"2026-01-02T09:59:59Z\"}");
    assertThat(api.events("global-ids", first).get("duplicates").asInt()).isEqualTo(1);
    // A day (eventide.ingest.id-retention) of event time later it is forgotten: counted again.
    api.watermark("global-ids", "{\"watermark\":\"2026-01-02T10:00:01Z\"}");
    JsonNode again = api.events("global-ids", first);
    assertThat(again.get("duplicates").asInt()).isZero();
    assertThat(again.get("accepted").asInt()).isEqualTo(1);
  }

  @Test
  void aWatermarkPostedBehindThePipelinesIsReportedAsIgnored() {
    LiveApi api = api();
    api.define("behind", COUNTS);
    api.events("behind", event("k", "2026-01-01T10:05:00Z", 1));
    JsonNode answer = api.watermark("behind", "{\"watermark\":\"2026-01-01T10:00:00Z\"}");
    assertThat(answer.get("accepted").asBoolean()).isFalse();
    assertThat(answer.get("reason").asString()).contains("backwards");
  }

  @Test
  void readingAPipelinesOutputsDoesNotStartIt() {
    LiveApi api = api();
    api.define("looked-at", COUNTS);
    assertThat(api.get("/pipelines/looked-at/windows").get("windows")).isEmpty();
    assertThat(api.get("/pipelines/looked-at/watermark").get("input").asString()).isEqualTo("-inf");
    // Not running, so a change of what it computes needs no reset.
    api.put("looked-at", COUNTS.replace("1m", "2m")).expect(200);
    api.events("looked-at", event("k", "2026-01-01T10:00:00Z", 1));
    api.put("looked-at", COUNTS).expectProblem(409);
  }
}
