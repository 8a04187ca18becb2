package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

/**
 * With security off: the per-pipeline cap on pane streams, the idle timeout that ends a stream
 * without panes (and every status stream), and CORS for the configured origin only.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.outputs.sse-heartbeat=100ms",
      "eventide.outputs.sse-idle-timeout=2s",
      "eventide.outputs.sse-max-per-pipeline=2",
      "eventide.security.cors.allowed-origins=https://dash.example.com"
    })
class StreamLimitsAndCorsTest {
  private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE =
      new ParameterizedTypeReference<>() {};
  private static final String COUNTS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}";

  @LocalServerPort int port;

  @Test
  void aThirdStreamOnOnePipelineIs429AndAnotherPipelineIsNotAffected() {
    Http http = new Http(port);
    http.send(HttpMethod.PUT, "/pipelines/capped", null, COUNTS);
    http.send(HttpMethod.PUT, "/pipelines/other", null, COUNTS);
    List<Disposable> open = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Sinks.One<Boolean> started = Sinks.one();
        open.add(
            http.headers(HttpMethod.GET, "/pipelines/capped/panes")
                .accept(MediaType.TEXT_EVENT_STREAM)
                .retrieve()
                .bodyToFlux(SSE)
                .subscribe(e -> started.tryEmitValue(true)));
        assertThat(started.asMono().block(Duration.ofSeconds(10))).isTrue();
      }
      Http.Reply third =
          Http.exchange(
              http.headers(HttpMethod.GET, "/pipelines/capped/panes")
                  .accept(MediaType.TEXT_EVENT_STREAM, MediaType.APPLICATION_PROBLEM_JSON));
      assertThat(third.status()).isEqualTo(429);
      assertThat(third.isProblem()).as("%s %s", third.headers(), third.text()).isTrue();
      assertThat(third.text()).contains("capped");
      ServerSentEvent<String> other =
          http.headers(HttpMethod.GET, "/pipelines/other/panes")
              .accept(MediaType.TEXT_EVENT_STREAM)
              .retrieve()
              .bodyToFlux(SSE)
              .blockFirst(Duration.ofSeconds(10));
      assertThat(other).isNotNull();
    } finally {
      open.forEach(Disposable::dispose);
    }
  }

  @Test
  void aStreamWithoutPanesEndsWithAnIdleEventDespiteItsHeartbeats() {
    Http http = new Http(port);
    http.send(HttpMethod.PUT, "/pipelines/quiet", null, COUNTS);
    List<ServerSentEvent<String>> events =
        http.headers(HttpMethod.GET, "/pipelines/quiet/panes")
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(SSE)
            .collectList()
            .block(Duration.ofSeconds(20));
    assertThat(events).isNotEmpty();
    assertThat(events.get(0).event()).isEqualTo("progress");
    assertThat(events).anyMatch(e -> "heartbeat".equals(e.comment()));
    ServerSentEvent<String> last = events.get(events.size() - 1);
    assertThat(last.event()).as("%s", events).isEqualTo("idle");
    assertThat(last.data()).contains("reconnect");
  }

  /** Issue 34: a status stream, which always carries something, still ends at the timeout. */
  @Test
  void aStatusStreamEndsWithAnIdleEventAtTheTimeout() {
    Http http = new Http(port);
    List<ServerSentEvent<String>> events =
        http.headers(HttpMethod.GET, "/pipelines/status")
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(SSE)
            .collectList()
            .block(Duration.ofSeconds(20));
    assertThat(events).extracting(ServerSentEvent::event).contains("status");
    ServerSentEvent<String> last = events.get(events.size() - 1);
    assertThat(last.event()).as("%s", events).isEqualTo("idle");
    assertThat(last.data()).contains("reconnect");
  }

  @Test
  void corsAnswersOnlyTheConfiguredOrigin() {
    Http http = new Http(port);
    Http.Reply allowed = preflight(http, "https://dash.example.com");
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.headers().getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN))
        .isEqualTo("https://dash.example.com");
    Http.Reply refused = preflight(http, "https://evil.example.com");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.headers().getFirst(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)).isNull();
  }

  private static Http.Reply preflight(Http http, String origin) {
    return Http.exchange(
        http.headers(HttpMethod.OPTIONS, "/pipelines")
            .header(HttpHeaders.ORIGIN, origin)
            .header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET"));
  }
}
