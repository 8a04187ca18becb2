package io.eventide.security;

import static io.eventide.security.SecuredRuntimeTest.PRODUCER;
import static io.eventide.security.SecuredRuntimeTest.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * Hostile and careless input over real HTTP: each answer is checked (status, problem+json naming
 * the field and the reason) and so is the state afterwards, which must not have changed.
 */
@SecuredRuntimeTest
class BadInputTest {
  private static final String SUMS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}";
  private static final String T = "\"2026-01-01T10:00:00Z\"";

  @LocalServerPort int port;
  Http http;
  String pipeline;

  @BeforeEach
  void fresh() {
    http = new Http(port);
    pipeline = "bad-" + System.nanoTime();
    assertThat(put(pipeline, SUMS).status()).isEqualTo(201);
  }

  private Http.Reply put(String name, String body) {
    return http.send(HttpMethod.PUT, "/pipelines/" + name, ROOT, body);
  }

  private Http.Reply events(String body) {
    return http.send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", ROOT, body);
  }

  private Http.Reply events(byte[] body) {
    return http.send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", ROOT, body);
  }

  /** Everything a request could have changed: the definition, the windows and the dead letters. */
  private String state() {
    return http.get("/pipelines/" + pipeline, ROOT).text()
        + http.get("/pipelines/" + pipeline + "/windows", ROOT).text()
        + http.get("/pipelines/" + pipeline + "/dead-letters", ROOT).text();
  }

  private static JsonNode problem(Http.Reply reply, int status) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    assertThat(reply.isProblem()).as("problem+json: %s", reply.headers()).isTrue();
    return reply.json();
  }

  /** The one event of a batch that was refused as invalid, and the dead letter saying why. */
  private JsonNode deadLetterOf(String event) {
    JsonNode result = events(event).json();
    assertThat(result.get("accepted").asInt()).as(result.toString()).isZero();
    assertThat(result.at("/dropped/invalid").asInt()).isEqualTo(1);
    return http.get("/pipelines/" + pipeline + "/dead-letters?limit=1", ROOT)
        .json()
        .get("deadLetters")
        .get(0);
  }

  @Test
  void malformedJsonIs400WithLineAndColumnAndChangesNothing() {
    String before = state();
    JsonNode p = problem(events("[{\"key\": \"k\",\n \"timestamp\": }]"), 400);
    assertThat(p.get("title").asString()).isEqualTo("Malformed JSON");
    assertThat(p.get("line").asInt()).isEqualTo(2);
    assertThat(p.get("column").asInt()).isPositive();
    assertThat(problem(put(pipeline, "{\"window\": "), 400).get("title").asString())
        .isEqualTo("Malformed JSON");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void wrongTypesAndUnknownFieldsInADefinitionNameTheFieldAndChangeNothing() {
    String before = state();
    JsonNode wrong =
        problem(
            put(
                pipeline,
                "{\"window\": {\"type\": \"fixed\", \"size\": true}, \"aggregate\": {\"type\":"
                    + " \"count\"}, \"colour\": \"red\"}"),
            400);
    assertThat(wrong.get("errors").toString()).contains("/window/size", "/colour");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void nonFiniteNumbersAreRefusedWhereANumberIsRequired() {
    String before = state();
    problem(events("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":NaN}"), 400);
    problem(events("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":Infinity}"), 400);
    problem(events("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":-Infinity}"), 400);
    assertThat(state()).isEqualTo(before);
    JsonNode letter = deadLetterOf("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1e400}");
    assertThat(letter.get("path").asString()).isEqualTo("/value");
    assertThat(letter.get("detail").asString()).isEqualTo("must be a finite number");
  }

  @Test
  void hugeNumbersAreRefusedAsTimestampsAndBeyondTheNumberLimit() {
    JsonNode letter =
        deadLetterOf("{\"key\":\"k\",\"timestamp\":123456789012345678901234567890,\"value\":1}");
    assertThat(letter.get("path").asString()).isEqualTo("/timestamp");
    String before = state();
    String digits = "9".repeat(1000);
    JsonNode p =
        problem(events("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":" + digits + "}"), 400);
    assertThat(p.get("title").asString()).isEqualTo("JSON exceeds a limit");
    assertThat(p.get("detail").asString()).isEqualTo("a number longer than 100 characters");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void negativeAndFarFutureTimestampsAreRefusedWithTheReason() {
    JsonNode negative = deadLetterOf("{\"key\":\"k\",\"timestamp\":-1,\"value\":1}");
    assertThat(negative.get("path").asString()).isEqualTo("/timestamp");
    assertThat(negative.get("detail").asString()).contains("must not be before 1970");
    JsonNode future = deadLetterOf("{\"key\":\"k\",\"timestamp\":9000000000000000,\"value\":1}");
    assertThat(future.get("detail").asString()).contains("must not be after 9999");

    String before = state();
    JsonNode watermark =
        problem(
            http.send(
                HttpMethod.POST,
                "/pipelines/" + pipeline + "/watermark",
                ROOT,
                "{\"watermark\": -5}"),
            400);
    assertThat(watermark.get("errors").get(0).get("path").asString()).isEqualTo("/watermark");
    assertThat(watermark.get("errors").get(0).get("reason").asString()).contains("before 1970");
    assertThat(state()).isEqualTo(before);

    JsonNode simulate =
        problem(
            http.send(
                HttpMethod.POST,
                "/simulate",
                ROOT,
                "{\"pipeline\": " + SUMS + ", \"steps\": [{\"watermark\": 99999999999999999}]}"),
            400);
    assertThat(simulate.toString()).contains("must not be after 9999");
  }

  @Test
  void aHundredMegabyteBodyIsCutWith413AndNothingApplied() {
    String before = state();
    byte[] chunk =
        ("[" + "{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1},".repeat(1))
            .getBytes(StandardCharsets.UTF_8);
    byte[] filler = " ".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
    DefaultDataBufferFactory buffers = DefaultDataBufferFactory.sharedInstance;
    // 100 MB streamed in 64 KB pieces, made as they are sent: the test never holds it whole.
    Flux<DataBuffer> body =
        Flux.concat(
            Flux.just(buffers.wrap(chunk)),
            Flux.range(0, 100 * 16).map(i -> buffers.wrap(filler.clone())));
    Http.Reply reply = http.stream("/pipelines/" + pipeline + "/events", ROOT, body);
    JsonNode p = problem(reply, 413);
    assertThat(p.get("limitBytes").asLong()).isEqualTo(1024 * 1024);
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void deepNestingIsRefusedAtTheDepthLimit() {
    String before = state();
    String deep = "[".repeat(10_000) + "]".repeat(10_000);
    JsonNode p = problem(events(deep), 400);
    assertThat(p.get("title").asString()).isEqualTo("JSON exceeds a limit");
    assertThat(p.get("detail").asString()).isEqualTo("nested deeper than 64 levels");
    problem(
        put(pipeline, "{\"window\":" + "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_001)), 400);
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void invalidUtf8IsRefusedRatherThanReplaced() {
    String before = state();
    byte[] head = "{\"key\":\"".getBytes(StandardCharsets.UTF_8);
    byte[] tail = ("\",\"timestamp\":" + T + ",\"value\":1}").getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 2 + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xC3;
    body[head.length + 1] = (byte) 0x28;
    System.arraycopy(tail, 0, body, head.length + 2, tail.length);
    JsonNode p = problem(events(body), 400);
    assertThat(p.get("detail").asString()).containsIgnoringCase("UTF-8");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void anNdjsonLineOfInvalidUtf8IsAnInvalidEventWhileTheOtherLinesApply() {
    byte[] good =
        ("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1}\n").getBytes(StandardCharsets.UTF_8);
    byte[] bad = good.clone();
    bad[8] = (byte) 0xC3; // "k" becomes a lead byte followed by '"': not UTF-8
    byte[] body = new byte[good.length + bad.length];
    System.arraycopy(good, 0, body, 0, good.length);
    System.arraycopy(bad, 0, body, good.length, bad.length);
    Http.Reply reply = http.ndjson("/pipelines/" + pipeline + "/events", ROOT, body);
    assertThat(reply.status()).as(reply.text()).isEqualTo(202);
    assertThat(reply.json().get("accepted").asInt()).isEqualTo(1);
    assertThat(reply.json().at("/dropped/invalid").asInt()).isEqualTo(1);
    JsonNode letter =
        http.get("/pipelines/" + pipeline + "/dead-letters?limit=1", ROOT)
            .json()
            .at("/deadLetters/0");
    assertThat(letter.get("reason").asString()).isEqualTo("invalid");
    assertThat(letter.get("detail").asString())
        .startsWith("the line is not JSON: bytes that are not UTF-8 at column ");
  }

  @Test
  void longKeysAndControlCharactersAreInvalidWhileOddUnicodeIsKeptExactly() {
    JsonNode tooLong =
        deadLetterOf("{\"key\":\"" + "k".repeat(513) + "\",\"timestamp\":" + T + ",\"value\":1}");
    assertThat(tooLong.get("path").asString()).isEqualTo("/key");
    assertThat(tooLong.get("detail").asString()).contains("at most 512");
    JsonNode control = deadLetterOf("{\"key\":\"a\\u0000b\",\"timestamp\":" + T + ",\"value\":1}");
    assertThat(control.get("detail").asString()).contains("control characters");
    JsonNode lone = deadLetterOf("{\"key\":\"a\\ud800\",\"timestamp\":" + T + ",\"value\":1}");
    assertThat(lone.get("detail").asString()).contains("lone surrogate");

    String odd = "ключ@🚀\u200d\u05d0e\u0301/%2F*";
    JsonNode ok = events("{\"key\":\"" + odd + "\",\"timestamp\":" + T + ",\"value\":2}").json();
    assertThat(ok.get("accepted").asInt()).isEqualTo(1);
    JsonNode windows = http.get("/pipelines/" + pipeline + "/windows", ROOT).json();
    assertThat(windows.get("windows").get(0).get("key").asString()).isEqualTo(odd);
  }

  @Test
  void duplicateIdsCountOnceAndDuplicateMembersAreRefused() {
    String e = "{\"id\":\"x1\",\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1}";
    JsonNode result = events("[" + e + "," + e + "]").json();
    assertThat(result.get("accepted").asInt()).isEqualTo(1);
    assertThat(result.get("duplicates").asInt()).isEqualTo(1);
    String before = state();
    JsonNode p = problem(events("{\"key\":\"k\",\"key\":\"j\",\"timestamp\":" + T + "}"), 400);
    assertThat(p.get("detail").asString())
        .isEqualTo("the property \"key\" is given twice at line 1, column 17");
    assertThat(state()).isEqualTo(before);
  }

  @Test
  void anUnknownPipelineIs404() {
    JsonNode p =
        problem(
            http.send(HttpMethod.POST, "/pipelines/nope-" + pipeline + "/events", ROOT, "{}"), 404);
    assertThat(p.get("detail").asString()).contains("nope-");
  }

  @Test
  void concurrentRedefinitionsLeaveOneWholeDefinition() {
    events("{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1}");
    String counts = SUMS.replace("sum", "count");
    List<CompletableFuture<Http.Reply>> puts = new ArrayList<>();
    IntStream.range(0, 8)
        .forEach(
            i ->
                puts.add(
                    CompletableFuture.supplyAsync(
                        () ->
                            put(
                                pipeline + (i % 2 == 0 ? "" : "?reset=true"),
                                i % 2 == 0 ? SUMS : counts))));
    Set<Integer> statuses = new java.util.HashSet<>();
    puts.forEach(f -> statuses.add(f.join().status()));
    assertThat(statuses).isSubsetOf(200, 201, 409);
    String type = http.get("/pipelines/" + pipeline, ROOT).json().at("/aggregate/type").asString();
    assertThat(type).isIn("sum", "count");
  }

  @Test
  void missingOrWrongCredentialsAndUngrantedPipelinesChangeNothing() {
    String before = state();
    String e = "{\"key\":\"k\",\"timestamp\":" + T + ",\"value\":1}";
    problem(http.send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", null, e), 401);
    problem(http.send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", "wrong", e), 401);
    problem(http.send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", PRODUCER, e), 403);
    problem(http.send(HttpMethod.PUT, "/pipelines/" + pipeline, PRODUCER, SUMS), 403);
    assertThat(state()).isEqualTo(before);
  }
}
