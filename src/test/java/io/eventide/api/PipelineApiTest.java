package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class PipelineApiTest {
  private static final String CLICKS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"}}
      """;

  @Autowired WebTestClient client;

  private WebTestClient.ResponseSpec put(String name, String body) {
    return client
        .put()
        .uri("/pipelines/{name}", name)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange();
  }

  @Test
  void createsThenReplacesThenReadsThenDeletes() {
    put("crud", CLICKS)
        .expectStatus()
        .isCreated()
        .expectHeader()
        .location("/pipelines/crud")
        .expectBody()
        .jsonPath("$.name")
        .isEqualTo("crud")
        .jsonPath("$.window.size")
        .isEqualTo("PT1M")
        .jsonPath("$.trigger.type")
        .isEqualTo("default")
        .jsonPath("$.warnings.length()")
        .isEqualTo(1)
        .jsonPath("$.warnings[0]")
        .value(w -> assertThat((String) w).startsWith("the watermark moves only"));

    put("crud", CLICKS.replace("1m", "5m").replace("{\"window\"", "{\"name\":\"crud\",\"window\""))
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.window.size")
        .isEqualTo("PT5M");

    client
        .get()
        .uri("/pipelines/crud")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.window.size")
        .isEqualTo("PT5M")
        .jsonPath("$.accumulation")
        .isEqualTo("discarding");

    client
        .get()
        .uri("/pipelines")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$[?(@.name == 'crud')].window.size")
        .isEqualTo("PT5M");

    client.delete().uri("/pipelines/crud").exchange().expectStatus().isNoContent();
    client
        .get()
        .uri("/pipelines/crud")
        .exchange()
        .expectStatus()
        .isNotFound()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.status")
        .isEqualTo(404)
        .jsonPath("$.detail")
        .isEqualTo("No pipeline named 'crud'");
    client
        .delete()
        .uri("/pipelines/crud")
        .exchange()
        .expectStatus()
        .isNotFound()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void acceptsBeamExpressionsAndReturnsTheCanonicalJavaOnes() {
    String canonical =
        "AfterWatermark.pastEndOfWindow().withEarlyFirings(AfterProcessingTime"
            + ".pastFirstElementInPane().plusDelayOf(Duration.standardMinutes(1)))"
            + ".withLateFirings(AfterPane.elementCountAtLeast(1))";
    put(
            "beam",
            """
            {"window": "window.FixedWindows(60)", "aggregate": {"type": "sum"},
             "trigger": "AfterWatermark(early=AfterProcessingTime(60), late=AfterCount(1))"}
            """)
        .expectStatus()
        .isCreated();
    client
        .get()
        .uri("/pipelines/beam")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.window.size")
        .isEqualTo("PT1M")
        .jsonPath("$.windowExpression")
        .isEqualTo("FixedWindows.of(Duration.standardMinutes(1))")
        .jsonPath("$.trigger.early.delay")
        .isEqualTo("PT1M")
        .jsonPath("$.trigger.late.count")
        .isEqualTo(1)
        .jsonPath("$.triggerExpression")
        .isEqualTo(canonical);
    put(
            "beam",
            "{\"window\": \"FixedWindows.of(Duration.standardMinutes(1))\","
                + " \"aggregate\": {\"type\": \"sum\"}, \"trigger\": \""
                + canonical
                + "\"}")
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.trigger.early.type")
        .isEqualTo("afterProcessingTime")
        .jsonPath("$.triggerExpression")
        .isEqualTo(canonical);
  }

  @Test
  void pointsAtTheColumnOfABrokenExpression() {
    put(
            "broken-expression",
            """
            {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
             "trigger": "Repeatedly.forever(AfterPane.elementCountAtLeast(3)"}
            """)
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/trigger")
        .jsonPath("$.errors[0].reason")
        .value(
            String.class,
            reason ->
                assertThat(reason)
                    .startsWith(
                        "unexpected end of expression, expected ')' at column 52:"
                            + " Repeatedly.forever(AfterPane.elementCountAtLeast(3)\n")
                    .endsWith("^"));
  }

  @Test
  void acceptsAWholeWindowingChainAndReturnsItsCanonicalJava() {
    String canonical =
        "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
            + ".triggering(AfterWatermark.pastEndOfWindow()"
            + ".withLateFirings(AfterPane.elementCountAtLeast(1)))"
            + ".withAllowedLateness(Duration.standardMinutes(10)).accumulatingFiredPanes()";
    put(
            "chain",
            """
            {"windowing": "Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardMinutes(1)))\\n\
              .triggering(AfterWatermark.pastEndOfWindow()\\n\
                .withLateFirings(AfterPane.elementCountAtLeast(1)))\\n\
              .withAllowedLateness(Duration.standardMinutes(10))\\n\
              .accumulatingFiredPanes();",
             "aggregate": {"type": "sum"}}
            """)
        .expectStatus()
        .isCreated()
        .expectBody()
        .jsonPath("$.window.size")
        .isEqualTo("PT1M")
        .jsonPath("$.trigger.late.count")
        .isEqualTo(1)
        .jsonPath("$.allowedLateness")
        .isEqualTo("PT10M")
        .jsonPath("$.accumulation")
        .isEqualTo("accumulating")
        .jsonPath("$.windowingExpression")
        .isEqualTo(canonical)
        .jsonPath("$.windowing")
        .doesNotExist();
    client
        .get()
        .uri("/pipelines/chain")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.trigger.type")
        .isEqualTo("afterWatermark")
        .jsonPath("$.windowingExpression")
        .isEqualTo(canonical);
    // The written chain, sent back, is the same definition: nothing to reset.
    put("chain", "{\"windowing\": \"" + canonical + "\", \"aggregate\": {\"type\": \"sum\"}}")
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.windowingExpression")
        .isEqualTo(canonical);
  }

  @Test
  void refusesAWindowingChainBesideTheFieldsItStandsFor() {
    put(
            "chain-conflict",
            """
            {"windowing": "beam.WindowInto(window.FixedWindows(60))",
             "trigger": {"type": "afterCount", "count": 1}, "allowedLateness": "1m",
             "aggregate": {"type": "sum"}}
            """)
        .expectStatus()
        .isBadRequest()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.errors.length()")
        .isEqualTo(2)
        .jsonPath("$.errors[0].path")
        .isEqualTo("/trigger")
        .jsonPath("$.errors[0].reason")
        .isEqualTo("must not be given with 'windowing': the windowing chain stands for it")
        .jsonPath("$.errors[1].path")
        .isEqualTo("/allowedLateness");
    put(
            "chain-broken",
            """
            {"windowing": "beam.WindowInto(s, window.NewFixedWindows(time.Minute), col, beam.Panes())",
             "aggregate": {"type": "sum"}}
            """)
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/windowing")
        .jsonPath("$.errors[0].reason")
        .value(
            String.class,
            reason ->
                assertThat(reason)
                    .startsWith(
                        "unknown option 'beam.Panes' at column 62:"
                            + " beam.WindowInto(s, window.NewFixedWindows(time.Minute), col,"
                            + " beam.Panes())\n")
                    .endsWith(
                        "known in Go: beam.AllowedLateness, beam.PanesAccumulate,"
                            + " beam.PanesDiscard, beam.Trigger"));
    client.get().uri("/pipelines/chain-conflict").exchange().expectStatus().isNotFound();
  }

  @Test
  void returnsWarnings() {
    put(
            "warned",
            """
            {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "mean"},
             "trigger": {"type": "afterCount", "count": 2}}
            """)
        .expectStatus()
        .isCreated()
        .expectBody()
        // The trigger that finishes, the mean's partial, the watermark that stands still.
        .jsonPath("$.warnings.length()")
        .isEqualTo(3)
        .jsonPath("$.trigger.count")
        .isEqualTo(2);
  }

  @Test
  void reportsEveryViolationAsProblemDetails() {
    put(
            "invalid",
            """
            {"name": "other", "window": {"type": "fixed", "size": "0s"},
             "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 0}},
             "aggregate": {"type": "nope"}, "colour": "red"}
            """)
        .expectStatus()
        .isBadRequest()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.status")
        .isEqualTo(400)
        .jsonPath("$.title")
        .isEqualTo("Invalid request")
        .jsonPath("$.instance")
        .isEqualTo("/pipelines/invalid")
        .jsonPath("$.errors.length()")
        .isEqualTo(5)
        .jsonPath("$.errors[0].path")
        .isEqualTo("/name")
        .jsonPath("$.errors[1].path")
        .isEqualTo("/window/size")
        .jsonPath("$.errors[1].reason")
        .isEqualTo("must be positive")
        .jsonPath("$.errors[2].path")
        .isEqualTo("/trigger/early/count")
        .jsonPath("$.errors[2].reason")
        .isEqualTo("must be at least 1")
        .jsonPath("$.errors[3].path")
        .isEqualTo("/aggregate/type")
        .jsonPath("$.errors[4].path")
        .isEqualTo("/colour")
        .jsonPath("$.errors[4].reason")
        .isEqualTo("unknown field");
  }

  @Test
  void refusesAnInvalidNameInTheUrl() {
    put("bad name!", CLICKS)
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/name");
  }

  @Test
  void reportsMalformedJsonWithItsPosition() {
    put("broken", "{\"window\": {\"type\": \"fixed\",\n  \"size\": }")
        .expectStatus()
        .isBadRequest()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .expectBody()
        .jsonPath("$.title")
        .isEqualTo("Malformed JSON")
        .jsonPath("$.line")
        .isEqualTo(2)
        .jsonPath("$.column")
        .isEqualTo(11)
        .jsonPath("$.detail")
        .isEqualTo("unexpected '}', a value was expected at line 2, column 11");
  }

  @Test
  void refusesDuplicateKeysAndTrailingContent() {
    put("twice", "{\"window\": {}, \"window\": {}}")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.detail")
        .isEqualTo("the property \"window\" is given twice at line 1, column 24");
    put("trailing", CLICKS + " {}")
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.detail")
        .value(
            String.class, detail -> assertThat(detail).startsWith("more follows the JSON value"));
  }

  @Test
  void refusesOtherMediaTypes() {
    client
        .put()
        .uri("/pipelines/text")
        .contentType(MediaType.TEXT_PLAIN)
        .bodyValue(CLICKS)
        .exchange()
        .expectStatus()
        .isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void refusesAMissingBody() {
    client
        .put()
        .uri("/pipelines/empty")
        .contentType(MediaType.APPLICATION_JSON)
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectHeader()
        .contentType(MediaType.APPLICATION_PROBLEM_JSON);
  }

  @Test
  void aFailedReplacementLeavesTheDefinitionUnchanged() {
    put("kept", CLICKS).expectStatus().isCreated();
    put("kept", CLICKS.replace("1m", "-1m")).expectStatus().isBadRequest();
    put("kept", "{").expectStatus().isBadRequest();
    client
        .get()
        .uri("/pipelines/kept")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.window.size")
        .isEqualTo("PT1M");
  }

  @Test
  void describesTheApi() {
    client
        .get()
        .uri("/v3/api-docs")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody()
        .jsonPath("$.paths['/pipelines/{name}'].put.operationId")
        .isEqualTo("putPipeline")
        .jsonPath("$.paths['/pipelines'].get.operationId")
        .isEqualTo("listPipelines")
        .jsonPath("$.paths['/simulate'].post.operationId")
        .isEqualTo("simulate")
        .jsonPath(
            "$.paths['/simulate'].post.requestBody.content['application/json'].schema['$ref']")
        .isEqualTo("#/components/schemas/SimulateRequest")
        .jsonPath("$.components.schemas.PaneRecord.properties.partial.description")
        .value(String.class, d -> assertThat(d).endsWith("absent otherwise"))
        .jsonPath("$.components.schemas.JsonNode")
        .doesNotExist();
  }
}
