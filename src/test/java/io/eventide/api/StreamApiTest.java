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

/**
 * POST /streams/{stream}/events and /watermark: one post reaches every pipeline reading the stream,
 * each with its own windows, counts and watermark; bad bodies reach none of them.
 */
@LiveRuntimeTest
class StreamApiTest {
  /** Per minute, counting; the watermark trails the events by nothing. */
  private static final String MINUTE_COUNTS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "count"},
       "accumulation": "accumulating", "stream": "%s"}
      """;

  /** Per ten minutes, summing /bytes rather than /value; the watermark trails by five minutes. */
  private static final String TEN_MINUTE_BYTES =
      """
      {"window": {"type": "fixed", "size": "10m"}, "aggregate": {"type": "sum"},
       "accumulation": "accumulating", "event": {"value": "/bytes"},
       "watermark": {"maxOutOfOrderness": "5m"}, "stream": "%s"}
      """;

  @LocalServerPort int port;

  private LiveApi api() {
    return LiveApi.on(port);
  }

  private static String click(String key, String time, int bytes, String id) {
    return "{\"key\":\"%s\",\"timestamp\":\"2026-01-01T%sZ\",\"bytes\":%d,\"id\":\"%s\"}"
        .formatted(key, time, bytes, id);
  }

  private static LiveApi.Reply postStream(LiveApi api, String stream, MediaType type, Object body) {
    return api.send(HttpMethod.POST, "/streams/" + stream + "/events", type, body);
  }

  @Test
  void everyReaderGetsThePostWithItsOwnWindowsCountsAndWatermark() {
    LiveApi api = api();
    api.define("clicks-per-minute", MINUTE_COUNTS.formatted("clicks"));
    api.define("bytes-per-ten", TEN_MINUTE_BYTES.formatted("clicks"));
    api.define("unrelated", MINUTE_COUNTS.formatted("views"));
    assertThat(api.get("/pipelines/clicks-per-minute").get("stream").asString())
        .isEqualTo("clicks");

    JsonNode answer =
        postStream(
                api,
                "clicks",
                MediaType.APPLICATION_JSON,
                array(
                    click("home", "10:00:10", 100, "c1"),
                    click("home", "10:01:10", 200, "c2"),
                    click("cart", "10:09:00", 400, "c3"),
                    // Counted by the minute pipeline; the byte pipeline needs a number at /bytes.
                    "{\"key\":\"home\",\"timestamp\":\"2026-01-01T10:02:00Z\",\"id\":\"c4\"}"))
            .expect(202)
            .body();
    assertThat(answer.get("stream").asString()).isEqualTo("clicks");
    assertThat(answer.get("pipelines").propertyNames())
        .containsExactly("bytes-per-ten", "clicks-per-minute");
    JsonNode minute = answer.at("/pipelines/clicks-per-minute");
    JsonNode ten = answer.at("/pipelines/bytes-per-ten");
    assertThat(minute.get("accepted").asInt()).isEqualTo(4);
    assertThat(minute.at("/dropped/invalid").asInt()).isZero();
    assertThat(ten.get("accepted").asInt()).isEqualTo(3);
    assertThat(ten.at("/dropped/invalid").asInt()).isEqualTo(1);
    assertThat(api.elements("unrelated")).isZero();

    // Each pipeline remembers its own ids, and judges lateness by its own watermark: for the minute
    // pipeline (at 10:09) c1's window is gone, so c1 is expired there and a duplicate only in the
    // ten-minute pipeline (at 10:04).
    JsonNode again =
        postStream(
                api,
                "clicks",
                MediaType.APPLICATION_JSON,
                array(click("home", "10:00:10", 100, "c1"), click("cart", "10:09:00", 400, "c3")))
            .expect(202)
            .body();
    assertThat(again.at("/pipelines/clicks-per-minute/duplicates").asInt()).isEqualTo(1);
    assertThat(again.at("/pipelines/clicks-per-minute/dropped/expired").asInt()).isEqualTo(1);
    assertThat(again.at("/pipelines/bytes-per-ten/duplicates").asInt()).isEqualTo(2);

    // Own watermarks: the minute pipeline is at the latest event, the other five minutes behind.
    assertThat(api.get("/pipelines/clicks-per-minute/watermark").get("input").asString())
        .isEqualTo("2026-01-01T10:09:00.000Z");
    assertThat(api.get("/pipelines/bytes-per-ten/watermark").get("input").asString())
        .isEqualTo("2026-01-01T10:04:00.000Z");

    // A watermark for the stream moves both; each answers as its own route would.
    JsonNode moved =
        api.send(
                HttpMethod.POST,
                "/streams/clicks/watermark",
                MediaType.APPLICATION_JSON,
                "{\"watermark\": \"2026-01-01T10:10:00Z\"}")
            .expect(200)
            .body();
    assertThat(moved.at("/pipelines/clicks-per-minute/accepted").asBoolean()).isTrue();
    assertThat(moved.at("/pipelines/bytes-per-ten/watermark/input").asString())
        .isEqualTo("2026-01-01T10:10:00.000Z");
    JsonNode perMinute = api.get("/pipelines/clicks-per-minute/results").get("results");
    assertThat(perMinute).extracting(r -> r.get("value").asDouble()).containsOnly(1.0);
    assertThat(perMinute).hasSize(4);
    JsonNode perTen = api.get("/pipelines/bytes-per-ten/results").get("results");
    assertThat(perTen)
        .extracting(r -> r.get("key").asString() + "=" + r.get("value").asDouble())
        .containsExactlyInAnyOrder("home=300.0", "cart=400.0");

    // The pipeline's own route still feeds it, and only it.
    api.events("clicks-per-minute", array(event("own", "2026-01-01T10:11:00Z", 1)));
    assertThat(api.elements("clicks-per-minute")).isEqualTo(1);
    assertThat(api.elements("bytes-per-ten")).isZero();
  }

  @Test
  void ndjsonReachesEveryReaderInTheSameBatches() {
    LiveApi api = api();
    api.define("nd-minute", MINUTE_COUNTS.formatted("nd"));
    api.define("nd-ten", TEN_MINUTE_BYTES.formatted("nd"));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2 * LiveRuntimeTest.NDJSON_BATCH + 5; i++) {
      lines.add(click("k", "10:00:%02d".formatted(i), 1, "n" + i));
    }
    lines.add("not json");
    JsonNode answer =
        postStream(api, "nd", LiveApi.NDJSON, String.join("\n", lines) + "\n").expect(202).body();
    for (String pipeline : List.of("nd-minute", "nd-ten")) {
      assertThat(answer.at("/pipelines/" + pipeline + "/accepted").asInt()).isEqualTo(25);
      assertThat(answer.at("/pipelines/" + pipeline + "/dropped/invalid").asInt()).isEqualTo(1);
      assertThat(api.elements(pipeline)).isEqualTo(25);
    }
  }

  @Test
  void aBodyThatIsRefusedReachesNoPipeline() {
    LiveApi api = api();
    api.define("bad-a", MINUTE_COUNTS.formatted("bad"));
    api.define("bad-b", TEN_MINUTE_BYTES.formatted("bad"));

    JsonNode malformed =
        postStream(api, "bad", MediaType.APPLICATION_JSON, "[" + click("k", "10:00:00", 1, "x"))
            .expectProblem(400)
            .body();
    assertThat(malformed.get("title").asString()).isEqualTo("Malformed JSON");
    postStream(api, "bad", LiveApi.NDJSON, "not json\nnor this\n").expectProblem(400);

    // Cut past the limit when streamed without a length: the whole body is read before any
    // pipeline sees it, so even the lines before the cut reach none.
    String line = click("k", "10:00:00", 1, "y") + "\n";
    int copies = LiveRuntimeTest.MAX_BODY_BYTES / line.length() + 10;
    Flux<String> chunked = Flux.range(0, copies).map(i -> line);
    JsonNode tooLarge = postStream(api, "bad", LiveApi.NDJSON, chunked).expectProblem(413).body();
    assertThat(tooLarge.get("limitBytes").asLong()).isEqualTo(LiveRuntimeTest.MAX_BODY_BYTES);
    postStream(api, "bad", MediaType.APPLICATION_JSON, array(click("k", "10:00:00", 1, "y")))
        .expect(202);
    assertThat(api.elements("bad-a")).isEqualTo(1);
    assertThat(api.elements("bad-b")).isEqualTo(1);
  }

  @Test
  void aStreamNoPipelineReadsIs404NamingIt() {
    LiveApi api = api();
    JsonNode problem =
        postStream(api, "nobody", MediaType.APPLICATION_JSON, array(click("k", "10:00:00", 1, "z")))
            .expectProblem(404)
            .body();
    assertThat(problem.get("stream").asString()).isEqualTo("nobody");
    assertThat(problem.get("detail").asString()).contains("'nobody'");
    api.send(
            HttpMethod.POST,
            "/streams/nobody/watermark",
            MediaType.APPLICATION_JSON,
            "{\"watermark\": 0}")
        .expectProblem(404);
    // Deleting its last reader makes a stream unknown again.
    api.define("lonely", MINUTE_COUNTS.formatted("lonely"));
    postStream(api, "lonely", MediaType.APPLICATION_JSON, array(click("k", "10:00:00", 1, "l")))
        .expect(202);
    api.delete("lonely").expect(204);
    postStream(api, "lonely", MediaType.APPLICATION_JSON, array(click("k", "10:00:00", 1, "l")))
        .expectProblem(404);
  }

  @Test
  void streamNamesAreCheckedAndTheReadersOfAStreamAreBounded() {
    LiveApi api = api();
    JsonNode bad =
        api.put("bad-stream", MINUTE_COUNTS.formatted("no spaces")).expectProblem(400).body();
    assertThat(bad.at("/errors/0/path").asString()).isEqualTo("/stream");
    for (int i = 0; i < LiveRuntimeTest.MAX_STREAM_READERS; i++) {
      api.define("crowd-" + i, MINUTE_COUNTS.formatted("crowd"));
    }
    JsonNode full =
        api.put("crowd-more", MINUTE_COUNTS.formatted("crowd")).expectProblem(400).body();
    assertThat(full.at("/errors/0/path").asString()).isEqualTo("/stream");
    assertThat(full.at("/errors/0/reason").asString())
        .contains("eventide.ingest.max-pipelines-per-stream");
    // A reader redefined counts once, not twice.
    api.put("crowd-0", MINUTE_COUNTS.formatted("crowd")).expect(200);
  }

  @Test
  void aPipelineThatRefusesItsPartIsReportedAndTheOthersAnswersStand() {
    LiveApi api = api();
    api.define("wm-full", MINUTE_COUNTS.formatted("wm"));
    api.define("wm-fresh", MINUTE_COUNTS.formatted("wm"));
    // wm-full tracks as many watermark sources as it may (eventide.ingest.max-sources, 1000).
    List<String> events = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      events.add(
          "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"source\":\"s%d\"}".formatted(i));
    }
    api.events("wm-full", array(events.toArray(String[]::new)));

    JsonNode problem =
        api.send(
                HttpMethod.POST,
                "/streams/wm/watermark",
                MediaType.APPLICATION_JSON,
                "{\"source\": \"one-more\", \"watermark\": \"2026-01-01T11:00:00Z\"}")
            .expectProblem(400)
            .body();
    assertThat(problem.get("stream").asString()).isEqualTo("wm");
    assertThat(problem.at("/applied/wm-fresh/accepted").asBoolean()).isTrue();
    assertThat(problem.at("/failed/wm-full/status").asInt()).isEqualTo(400);
    assertThat(problem.at("/failed/wm-full/errors/0/path").asString()).isEqualTo("/source");
    assertThat(api.get("/pipelines/wm-fresh/watermark").get("input").asString())
        .isEqualTo("2026-01-01T11:00:00.000Z");
    assertThat(api.get("/pipelines/wm-full/watermark").get("input").asString())
        .isEqualTo("2026-01-01T10:00:00.000Z");
  }

  @Test
  void theAnswersHaveTheFieldsTheirSchemasName() {
    LiveApi api = api();
    api.define("doc-a", MINUTE_COUNTS.formatted("doc"));
    JsonNode schemas = api.get("/v3/api-docs").at("/components/schemas");
    JsonNode events =
        postStream(api, "doc", MediaType.APPLICATION_JSON, array(click("k", "10:00:00", 1, "d")))
            .expect(202)
            .body();
    assertThat(events.propertyNames())
        .containsExactlyInAnyOrderElementsOf(names(schemas.at("/StreamIngestResult/properties")));
    assertThat(names(events.at("/pipelines/doc-a")))
        .containsAll(names(schemas.at("/IngestResult/required")));
    JsonNode watermark =
        api.send(
                HttpMethod.POST,
                "/streams/doc/watermark",
                MediaType.APPLICATION_JSON,
                "{\"watermark\": 0}")
            .expect(200)
            .body();
    assertThat(watermark.propertyNames())
        .containsExactlyInAnyOrderElementsOf(
            names(schemas.at("/StreamWatermarkResult/properties")));
    assertThat(names(watermark.at("/pipelines/doc-a")))
        .containsAll(names(schemas.at("/WatermarkPostResult/required")));
    assertThat(api.get("/pipelines/doc-a").get("stream").asString()).isEqualTo("doc");
    assertThat(schemas.at("/Pipeline/properties/stream").isMissingNode()).isFalse();
    assertThat(schemas.at("/PipelineDefinition/properties/stream").isMissingNode()).isFalse();
  }

  /** The property names of an object, or the strings of an array. */
  private static List<String> names(JsonNode node) {
    List<String> names = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> names.add(n.asString()));
    } else {
      names.addAll(node.propertyNames());
    }
    return names;
  }
}
