package io.eventide.security;

import static io.eventide.security.SecuredRuntimeTest.PRODUCER;
import static io.eventide.security.SecuredRuntimeTest.READER;
import static io.eventide.security.SecuredRuntimeTest.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;

/**
 * Posting to a stream with security on: the stream's grant, or the producer role on every pipeline
 * that reads it; a credential short of one pipeline's role is refused and nothing is applied
 * anywhere.
 */
@SecuredRuntimeTest
class SecuredStreamTest {
  private static final String READS_TAPS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"},"
          + " \"stream\": \"taps\"}";
  private static final String EVENTS = "/streams/taps/events";
  private static final String WATERMARK = "/streams/taps/watermark";

  @LocalServerPort int port;
  Http http;

  @BeforeEach
  void pipelines() {
    http = new Http(port);
    for (String name : List.of("taps-left", "taps-right")) {
      Http.Reply defined = http.send(HttpMethod.PUT, "/pipelines/" + name, ROOT, READS_TAPS);
      assertThat(defined.status()).as(defined.text()).isIn(200, 201);
    }
  }

  private static String token(String scopes) {
    return TestJwt.token("svc", "eventide", scopes);
  }

  private static String event(String id) {
    return "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"id\":\"" + id + "\"}";
  }

  private long elements(String pipeline) {
    long n = 0;
    for (JsonNode w : http.get("/pipelines/" + pipeline + "/windows", ROOT).json().get("windows")) {
      n += w.get("elements").asLong();
    }
    return n;
  }

  private static void assertProblem(Http.Reply reply, int status) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    assertThat(reply.isProblem()).as("problem+json: %s", reply.headers()).isTrue();
    assertThat(reply.json().get("status").asInt()).isEqualTo(status);
  }

  @Test
  void theProducerRoleOnOnlySomeReadersIs403AndNothingIsAppliedToAny() {
    long left = elements("taps-left");
    long right = elements("taps-right");
    String leftOnly = token("eventide:produce:taps-left");
    Http.Reply refused = http.send(HttpMethod.POST, EVENTS, leftOnly, "[" + event("l1") + "]");
    assertProblem(refused, 403);
    assertThat(refused.json().get("detail").asString())
        .contains("1 of the 2 pipelines")
        .contains("stream:taps");
    assertProblem(
        http.send(
            HttpMethod.POST, WATERMARK, leftOnly, "{\"watermark\": \"2026-01-01T11:00:00Z\"}"),
        403);
    Http.Reply ndjson =
        http.ndjson(EVENTS, leftOnly, (event("l2") + "\n").getBytes(StandardCharsets.UTF_8));
    assertProblem(ndjson, 403);
    assertThat(elements("taps-left")).isEqualTo(left);
    assertThat(elements("taps-right")).isEqualTo(right);
    assertThat(http.get("/pipelines/taps-left/watermark", ROOT).json().get("input").asString())
        .isNotEqualTo("2026-01-01T11:00:00.000Z");
    // The orders producer produces to neither reader.
    assertProblem(http.send(HttpMethod.POST, EVENTS, PRODUCER, "[" + event("p1") + "]"), 403);
  }

  @Test
  void theRoleOnEveryReaderOrTheStreamGrantLetsThePostThrough() {
    long left = elements("taps-left");
    long right = elements("taps-right");
    String both = token("eventide:produce:taps-left eventide:produce:taps-right");
    Http.Reply viaRoles = http.send(HttpMethod.POST, EVENTS, both, "[" + event("b1") + "]");
    assertThat(viaRoles.status()).as(viaRoles.text()).isEqualTo(202);
    assertThat(viaRoles.json().get("pipelines").propertyNames())
        .containsExactly("taps-left", "taps-right");

    String streamGrant = token("eventide:produce:stream:taps");
    Http.Reply viaGrant = http.send(HttpMethod.POST, EVENTS, streamGrant, "[" + event("g1") + "]");
    assertThat(viaGrant.status()).as(viaGrant.text()).isEqualTo(202);
    Http.Reply watermark =
        http.send(HttpMethod.POST, WATERMARK, streamGrant, "{\"watermark\": 1767261600000}");
    assertThat(watermark.status()).as(watermark.text()).isEqualTo(200);
    assertThat(elements("taps-left")).isEqualTo(left + 2);
    assertThat(elements("taps-right")).isEqualTo(right + 2);

    // A grant for another stream is no grant for this one.
    assertProblem(
        http.send(
            HttpMethod.POST,
            EVENTS,
            token("eventide:produce:stream:other"),
            "[" + event("o1") + "]"),
        403);
  }

  @Test
  void otherMethodsCredentialsAndRolesAreDenied() {
    String grant = token("eventide:produce:stream:taps");
    assertProblem(http.send(HttpMethod.POST, EVENTS, null, "[" + event("n1") + "]"), 401);
    assertProblem(http.send(HttpMethod.POST, EVENTS, READER, "[" + event("r1") + "]"), 403);
    assertProblem(http.send(HttpMethod.PUT, EVENTS, grant, "[" + event("x1") + "]"), 403);
    assertProblem(http.get(EVENTS, ROOT), 403);
    assertProblem(http.send(HttpMethod.DELETE, "/streams/taps", ROOT, (byte[]) null), 403);
    assertProblem(http.get("/streams/taps", grant), 403);
    WebClient.RequestHeadersSpec<?> head = http.headers(HttpMethod.HEAD, EVENTS);
    head.header(HttpHeaders.AUTHORIZATION, "Bearer " + ROOT);
    assertThat(Http.exchange(head).status()).isEqualTo(403);
  }
}
