package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;

/**
 * A HEAD on a stream route answers its headers at once and holds no slot (issue 34, item 5): with
 * streams that never end by themselves, a HEAD that ran the stream would never answer, and a few of
 * them would fill the cap.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"eventide.outputs.sse-max-per-pipeline=2"})
class StreamHeadTest {
  private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE =
      new ParameterizedTypeReference<>() {};

  @LocalServerPort int port;

  @Test
  void headOnAStreamRouteAnswersAtOnceAndTakesNoSlot() {
    Http http = new Http(port);
    http.send(
        HttpMethod.PUT,
        "/pipelines/probed",
        null,
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}");
    for (String path : List.of("/pipelines/probed/panes", "/pipelines/status")) {
      for (int i = 0; i < 5; i++) {
        Http.Reply head =
            Http.exchange(http.headers(HttpMethod.HEAD, path).accept(MediaType.TEXT_EVENT_STREAM));
        assertThat(head.status()).as(path).isEqualTo(200);
        assertThat(head.headers().getContentType().isCompatibleWith(MediaType.TEXT_EVENT_STREAM))
            .as(path)
            .isTrue();
      }
    }
    assertThat(Http.exchange(http.headers(HttpMethod.HEAD, "/pipelines/nowhere/panes")).status())
        .isEqualTo(404);
    // The cap is two streams: after five HEADs a GET still opens one.
    ServerSentEvent<String> first =
        http.headers(HttpMethod.GET, "/pipelines/probed/panes")
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(SSE)
            .blockFirst(Duration.ofSeconds(10));
    assertThat(first.event()).isEqualTo("progress");
  }
}
