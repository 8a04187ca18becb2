package io.eventide.security;

import static io.eventide.security.SecuredRuntimeTest.PRODUCER;
import static io.eventide.security.SecuredRuntimeTest.READER;
import static io.eventide.security.SecuredRuntimeTest.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.context.TestPropertySource;

/**
 * What a browser's EventSource can send: the credential as the {@code access_token} query
 * parameter, accepted on the GET stream routes only, never written to the log.
 */
@SecuredRuntimeTest
@ExtendWith(OutputCaptureExtension.class)
// Spring's request log at DEBUG writes each request's URL, query included: the credential must be
// gone from the URL before it.
@TestPropertySource(
    properties = "logging.level.org.springframework.web.server.adapter.HttpWebHandlerAdapter=DEBUG")
class StreamCredentialsTest {
  private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE =
      new ParameterizedTypeReference<>() {};

  @LocalServerPort int port;
  Http http;

  @BeforeEach
  void pipeline() {
    http = new Http(port);
    assertThat(http.send(HttpMethod.PUT, "/pipelines/orders", ROOT, SecuredApiTest.COUNTS).status())
        .isIn(200, 201);
  }

  @Test
  void anApiKeyOrAJwtInTheQueryOpensAPaneStreamAsTheHeaderWould(CapturedOutput output) {
    String jwt = TestJwt.token("dashboard", "eventide", "eventide:read:orders");
    for (String credential : List.of(READER, jwt)) {
      ServerSentEvent<String> first =
          firstEvent("/pipelines/orders/panes?access_token=" + credential);
      assertThat(first).isNotNull();
      assertThat(first.event()).isEqualTo("progress");
    }
    ServerSentEvent<String> status = firstEvent("/pipelines/status?access_token=" + ROOT);
    assertThat(status.event()).isEqualTo("status");
    assertThat(status.data()).contains("\"name\":\"orders\"");
    assertThat(output.getAll()).contains("/pipelines/orders/panes");
    assertThat(output.getAll()).doesNotContain(READER).doesNotContain(jwt).doesNotContain(ROOT);
  }

  private ServerSentEvent<String> firstEvent(String path) {
    return http.headers(HttpMethod.GET, path)
        .accept(MediaType.TEXT_EVENT_STREAM)
        .retrieve()
        .bodyToFlux(SSE)
        .blockFirst(Duration.ofSeconds(10));
  }

  @Test
  void theQueryParameterCountsForNothingElseAndAWrongOneIs401() {
    Http.Reply results = http.get("/pipelines/orders/results?access_token=" + READER, null);
    assertThat(results.status()).isEqualTo(401);
    Http.Reply post =
        http.send(
            HttpMethod.POST,
            "/pipelines/orders/events?access_token=" + PRODUCER,
            null,
            SecuredApiTest.EVENT);
    assertThat(post.status()).isEqualTo(401);
    Http.Reply wrong =
        Http.exchange(
            http.headers(HttpMethod.GET, "/pipelines/orders/panes?access_token=not-a-key")
                .accept(MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_PROBLEM_JSON));
    assertThat(wrong.status()).isEqualTo(401);
    // A reader of one pipeline may stream it, but not the status of every pipeline.
    Http.Reply status =
        Http.exchange(
            http.headers(HttpMethod.GET, "/pipelines/status?access_token=" + READER)
                .accept(MediaType.APPLICATION_JSON));
    assertThat(status.status()).isEqualTo(403);
  }

  @Test
  void thePageIsServedWithoutCredentials() {
    Http.Reply page = http.get("/", null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.text()).contains("<title>Eventide</title>");
    assertThat(http.get("/dashboard/app.js", null).status()).isEqualTo(200);
  }
}
