package io.eventide.security;

import static io.eventide.security.SecuredRuntimeTest.PRODUCER;
import static io.eventide.security.SecuredRuntimeTest.READER;
import static io.eventide.security.SecuredRuntimeTest.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.deploy.ProjectFiles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;

/** Who may call what, with security on: API keys, JWTs, roles per pipeline, 401 and 403. */
@SecuredRuntimeTest
class SecuredApiTest {
  static final String COUNTS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}";
  static final String EVENT = "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}";

  @LocalServerPort int port;
  Http http;

  @BeforeEach
  void pipelines() {
    http = new Http(port);
    for (String name : List.of("orders", "payments")) {
      assertThat(http.send(HttpMethod.PUT, "/pipelines/" + name, ROOT, COUNTS).status())
          .isIn(200, 201);
    }
  }

  private static void assertProblem(Http.Reply reply, int status) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(status);
    assertThat(reply.isProblem()).as("problem+json: %s", reply.headers()).isTrue();
    assertThat(reply.json().get("status").asInt()).isEqualTo(status);
    assertThat(reply.json().get("detail").asString()).isNotBlank();
  }

  @Test
  void withoutCredentialsEveryPipelineRouteAnswers401WithAChallenge() {
    for (Http.Reply reply :
        List.of(
            http.get("/pipelines", null),
            http.get("/pipelines/orders/results", null),
            http.send(HttpMethod.POST, "/pipelines/orders/events", null, EVENT),
            http.send(HttpMethod.PUT, "/pipelines/orders", null, COUNTS),
            http.send(HttpMethod.POST, "/simulate", null, "{}"))) {
      assertProblem(reply, 401);
      assertThat(reply.headers().getFirst(HttpHeaders.WWW_AUTHENTICATE)).startsWith("Bearer");
    }
  }

  @Test
  void anUnknownKeyOrAForgedTokenIs401InvalidToken() {
    Http.Reply unknown = http.get("/pipelines/orders", "not-a-key");
    assertProblem(unknown, 401);
    assertThat(unknown.headers().getFirst(HttpHeaders.WWW_AUTHENTICATE)).contains("invalid_token");
    Http.Reply viaHeader =
        Http.exchange(
            http.headers(HttpMethod.GET, "/pipelines/orders").header("X-Api-Key", "nope"));
    assertProblem(viaHeader, 401);
    String forged = TestJwt.token("mallory", "eventide", "eventide:admin") + "x";
    assertProblem(http.get("/pipelines/orders", forged), 401);
  }

  @Test
  void aProducerWritesOnlyToItsPipelineAndReadsNothing() {
    assertThat(http.send(HttpMethod.POST, "/pipelines/orders/events", PRODUCER, EVENT).status())
        .isEqualTo(202);
    assertThat(
            http.send(
                    HttpMethod.POST,
                    "/pipelines/orders/watermark",
                    PRODUCER,
                    "{\"watermark\":\"2026-01-01T09:00:00Z\"}")
                .status())
        .isEqualTo(200);
    assertProblem(http.send(HttpMethod.POST, "/pipelines/payments/events", PRODUCER, EVENT), 403);
    assertProblem(http.get("/pipelines/orders/results", PRODUCER), 403);
    assertProblem(http.get("/pipelines", PRODUCER), 403);
    assertProblem(http.send(HttpMethod.PUT, "/pipelines/orders", PRODUCER, COUNTS), 403);
    assertProblem(http.send(HttpMethod.DELETE, "/pipelines/orders", PRODUCER, (byte[]) null), 403);
  }

  @Test
  void aReaderReadsOnlyItsPipelineAndWritesNothing() {
    for (String route :
        List.of("", "/results", "/windows", "/dead-letters", "/watermark", "/lateness")) {
      assertThat(http.get("/pipelines/orders" + route, READER).status()).as(route).isEqualTo(200);
    }
    assertProblem(http.get("/pipelines/payments/results", READER), 403);
    assertProblem(http.send(HttpMethod.POST, "/pipelines/orders/events", READER, EVENT), 403);
    assertProblem(http.send(HttpMethod.POST, "/simulate", READER, "{}"), 403);
  }

  /**
   * /simulate stores nothing, but it is the costliest request there is and runs on a few threads
   * every caller shares: who defines pipelines tries them, while reader keys, which dashboards put
   * in URLs, and producer keys, spread over many hosts, may not. docs/security.md and openapi.yaml
   * say the same.
   */
  @Test
  void simulatingTakesTheAdminRoleOfSomePipeline() {
    String everyReader = TestJwt.token("viewer", "eventide", "eventide:read:*");
    String streamProducer = TestJwt.token("collector", "eventide", "eventide:produce:stream:c");
    for (String credential : List.of(READER, PRODUCER, everyReader, streamProducer)) {
      assertProblem(http.send(HttpMethod.POST, "/simulate", credential, "{}"), 403);
    }
    String ordersAdmin = TestJwt.token("designer", "eventide", "eventide:admin:orders");
    // Past authorization: the empty request itself is what is refused.
    assertThat(http.send(HttpMethod.POST, "/simulate", ordersAdmin, "{}").status()).isEqualTo(400);
    assertThat(http.send(HttpMethod.POST, "/simulate", ROOT, "{}").status()).isEqualTo(400);

    assertThat(ProjectFiles.read("docs/security.md"))
        .contains("| `POST /simulate` (touches no state) | admin of any pipeline |")
        .doesNotContain("| `POST /simulate` (touches no state) | any valid credential |");
    assertThat(ProjectFiles.read("openapi.yaml"))
        .contains("With security on, it takes the admin role of at least one pipeline");
  }

  @Test
  void headIsCheckedAsGetIs() {
    for (String route :
        List.of("", "/panes", "/results", "/windows", "/dead-letters", "/watermark", "/lateness")) {
      assertThat(head("/pipelines/payments" + route, READER)).as(route).isEqualTo(403);
      assertThat(head("/pipelines/orders" + route, PRODUCER)).as(route).isEqualTo(403);
      assertThat(head("/pipelines/orders" + route, null)).as(route).isEqualTo(401);
    }
    assertThat(head("/pipelines", READER)).isEqualTo(403);
    for (String route :
        List.of("", "/results", "/windows", "/dead-letters", "/watermark", "/lateness")) {
      assertThat(head("/pipelines/orders" + route, READER)).as(route).isEqualTo(200);
    }
  }

  @Test
  void whatNoRuleAuthorisesIsDenied() {
    assertProblem(http.send(HttpMethod.PATCH, "/pipelines/orders", ROOT, COUNTS), 403);
    assertProblem(http.send(HttpMethod.POST, "/pipelines/orders/results", READER, "{}"), 403);
    assertProblem(http.send(HttpMethod.PUT, "/pipelines/orders/events", PRODUCER, EVENT), 403);
    assertProblem(http.get("/nowhere", ROOT), 403);
    assertProblem(http.send(HttpMethod.OPTIONS, "/pipelines/orders", READER, (byte[]) null), 403);
    assertProblem(http.get("/nowhere", null), 401);
  }

  private int head(String path, String credential) {
    WebClient.RequestHeadersSpec<?> request = http.headers(HttpMethod.HEAD, path);
    if (credential != null) {
      request.header(HttpHeaders.AUTHORIZATION, "Bearer " + credential);
    }
    return Http.exchange(request).status();
  }

  @Test
  void anAdminCreatesAKeyThatCarriesExactlyItsGrants() {
    assertProblem(http.send(HttpMethod.POST, "/admin/api-keys", PRODUCER, "{\"name\":\"x\"}"), 403);
    Http.Reply created =
        http.send(
            HttpMethod.POST,
            "/admin/api-keys",
            ROOT,
            "{\"name\":\"payments-producer\",\"producer\":[\"payments\"]}");
    assertThat(created.status()).as(created.text()).isEqualTo(201);
    String key = created.json().get("key").asString();
    assertThat(key).startsWith("evt_").doesNotContain(".");
    assertThat(created.json().get("sha256").asString()).isEqualTo(ApiKeyStore.sha256(key));
    assertThat(http.send(HttpMethod.POST, "/pipelines/payments/events", key, EVENT).status())
        .isEqualTo(202);
    assertProblem(http.send(HttpMethod.POST, "/pipelines/orders/events", key, EVENT), 403);

    Http.Reply invalid =
        http.send(HttpMethod.POST, "/admin/api-keys", ROOT, "{\"name\":\"\",\"owner\":1}");
    assertProblem(invalid, 400);
    assertThat(invalid.text()).contains("/name", "/owner");
  }

  @Test
  void jwtScopesGrantRolesPerPipelineForThisAudienceOnly() {
    String reader = TestJwt.token("dashboard", "eventide", "eventide:read:orders");
    assertThat(http.get("/pipelines/orders/results", reader).status()).isEqualTo(200);
    assertProblem(http.get("/pipelines/payments/results", reader), 403);
    assertProblem(http.send(HttpMethod.POST, "/pipelines/orders/events", reader, EVENT), 403);

    String producer = TestJwt.token("svc", "eventide", "eventide:produce:payments");
    assertThat(http.send(HttpMethod.POST, "/pipelines/payments/events", producer, EVENT).status())
        .isEqualTo(202);

    String admin = TestJwt.token("ops", "eventide", "eventide:admin");
    assertThat(http.send(HttpMethod.PUT, "/pipelines/jwt-made", admin, COUNTS).status())
        .isEqualTo(201);

    String elsewhere = TestJwt.token("ops", "another-service", "eventide:admin");
    assertProblem(http.get("/pipelines/orders", elsewhere), 401);
  }

  @Test
  void healthProbesAreOpenAndTheRestOfTheActuatorNeedsAnAdmin() {
    assertThat(http.get("/actuator/health/liveness", null).status()).isEqualTo(200);
    assertThat(http.get("/actuator/health/readiness", null).status()).isEqualTo(200);
    assertThat(http.get("/v3/api-docs", null).status()).isEqualTo(200);
    assertProblem(http.get("/actuator/prometheus", null), 401);
    assertProblem(http.get("/actuator/info", READER), 403);
    assertThat(http.get("/actuator/prometheus", ROOT).status()).isEqualTo(200);
    assertProblem(http.get("/actuator/metrics", READER), 403);
    assertThat(http.get("/actuator/metrics", ROOT).status()).isEqualTo(200);
  }

  /**
   * With security on, whatever the profile, health shows every component's status to anyone (the
   * probes need them) and their details (disk paths, Redis, pipeline counts) to the global admin
   * only.
   */
  @Test
  void healthDetailsAreTheGlobalAdminsOnly() {
    for (String path : List.of("/actuator/health", "/actuator/health/readiness")) {
      for (String credential : new String[] {null, READER, PRODUCER}) {
        JsonNode health = http.get(path, credential).json();
        assertThat(health.get("components")).as(path).isNotNull();
        assertThat(health.findValue("details")).as("%s for %s", path, credential).isNull();
      }
      assertThat(http.get(path, ROOT).json().findValue("details")).as(path).isNotNull();
      String admin = TestJwt.token("ops", "eventide", "eventide:admin");
      assertThat(http.get(path, admin).json().findValue("details")).as(path).isNotNull();
    }
  }

  @Test
  void paneStreamsPerCredentialAreCappedWith429() throws InterruptedException {
    List<Disposable> open = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Sinks.One<Boolean> started = Sinks.one();
        open.add(
            http.headers(HttpMethod.GET, "/pipelines/orders/panes")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + READER)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .retrieve()
                .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .subscribe(e -> started.tryEmitValue(true)));
        // The first heartbeat proves the stream holds its permit.
        assertThat(started.asMono().block(Duration.ofSeconds(10))).isTrue();
      }
      Http.Reply third =
          Http.exchange(
              http.headers(HttpMethod.GET, "/pipelines/orders/panes")
                  .header(HttpHeaders.AUTHORIZATION, "Bearer " + READER)
                  .accept(MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_PROBLEM_JSON));
      assertProblem(third, 429);
      assertThat(third.json().get("detail").asString()).contains("this credential", "streams");
      // Another credential is not held to this one's cap.
      JsonNode results = http.get("/pipelines/orders/results", ROOT).json();
      assertThat(results.get("pipeline").asString()).isEqualTo("orders");
    } finally {
      open.forEach(Disposable::dispose);
    }
  }
}
