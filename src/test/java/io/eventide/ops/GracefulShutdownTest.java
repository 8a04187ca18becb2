package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.EventideApplication;
import io.eventide.sink.PaneHub;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/**
 * Graceful shutdown does not wait for live pane streams nor status streams, which never end by
 * themselves (the status stream did not end before issue 34).
 */
class GracefulShutdownTest {

  @Test
  void endsPaneStreamsInsteadOfWaitingOutTheTimeout() throws InterruptedException {
    ConfigurableApplicationContext app =
        new SpringApplicationBuilder(EventideApplication.class)
            .run("--server.port=0", "--spring.lifecycle.timeout-per-shutdown-phase=20s");
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    WebClient http = WebClient.create("http://localhost:" + port);
    http.put()
        .uri("/pipelines/streamed")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}")
        .retrieve()
        .toBodilessEntity()
        .block(Duration.ofSeconds(10));
    CountDownLatch ended = new CountDownLatch(2);
    CountDownLatch statusOpen = new CountDownLatch(1);
    Disposable stream =
        http.get()
            .uri("/pipelines/streamed/panes")
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(String.class)
            .doFinally(signal -> ended.countDown())
            .subscribe();
    Disposable status =
        http.get()
            .uri("/pipelines/status")
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(String.class)
            .doOnNext(event -> statusOpen.countDown())
            .doFinally(signal -> ended.countDown())
            .subscribe();
    try {
      PaneHub hub = app.getBean(PaneHub.class);
      await().atMost(Duration.ofSeconds(10)).until(() -> hub.subscriberCount("streamed") == 1);
      assertThat(statusOpen.await(10, TimeUnit.SECONDS)).as("the status stream open").isTrue();
      long started = System.nanoTime();
      app.close();
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(ended.await(5, TimeUnit.SECONDS)).as("both streams ended").isTrue();
      assertThat(took).isLessThan(Duration.ofSeconds(10));
    } finally {
      stream.dispose();
      status.dispose();
      app.close(); // a second close does nothing; this one is for a test that failed before
    }
  }
}
