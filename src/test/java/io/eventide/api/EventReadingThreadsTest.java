package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.ProcessingClock;
import io.eventide.runtime.LiveApi;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * Issue 34: posted events are read (parsed, their expressions evaluated) off the Netty event loop,
 * but for a pipeline route's batch within {@code eventide.ingest.read-on-loop-limit} (128 KB) whose
 * pipeline evaluates no expression, read on the loop that received it. A pipeline reads the wall
 * clock just before it reads a batch, on the same thread: the clock here notes the threads that
 * read it there.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class EventReadingThreadsTest {
  private static final Set<String> READING = ConcurrentHashMap.newKeySet();

  @TestConfiguration
  static class ThreadNotingClock {
    @Bean
    @Primary
    ProcessingClock threadNotingClock() {
      return () -> {
        if (StackWalker.getInstance()
            .walk(
                frames ->
                    frames.anyMatch(
                        f ->
                            f.getClassName().equals("io.eventide.runtime.PipelineRuntime")
                                && f.getMethodName().equals("ingest")))) {
          READING.add(Thread.currentThread().getName());
        }
        return System.currentTimeMillis();
      };
    }
  }

  @LocalServerPort int port;

  @Test
  void smallPlainBatchesAreReadOnTheirLoopAndEveryOtherOnTheReadingThreads() {
    LiveApi api = LiveApi.on(port);
    String event = LiveApi.event("k", "2026-01-01T10:00:00Z", 1);
    String window = "\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}";
    api.define("plain", "{" + window + ", \"aggregate\": {\"type\": \"count\"}}");
    api.define(
        "filtered",
        "{\"stream\": \"threads-in\", "
            + window
            + ", \"filter\": \"event.value > 0\", \"aggregate\": {\"type\": \"count\"}}");
    // More than 128 KB whole, as JSON and as one NDJSON batch.
    List<String> many = Collections.nCopies(3000, event);
    assertThat(String.join("\n", many)).hasSizeGreaterThan(128 * 1024);

    // A pipeline's first post opens its runtime, which the post then finds on another thread than
    // its loop, where it is read off the loop; from then on the loop reads what is small and plain.
    api.events("plain", LiveApi.array(event));
    assertThat(readers(() -> api.events("plain", LiveApi.array(event, event))))
        .allMatch(name -> name.contains("-http-"));
    assertThat(readers(() -> api.ndjson("plain", List.of(event, event))))
        .allMatch(name -> name.contains("-http-"));

    assertThat(readers(() -> api.events("plain", LiveApi.array(many.toArray(String[]::new)))))
        .allMatch(name -> name.startsWith("eventide-read-"));
    assertThat(readers(() -> api.ndjson("plain", many)))
        .allMatch(name -> name.startsWith("eventide-read-"));
    assertThat(readers(() -> api.events("filtered", LiveApi.array(event, event))))
        .allMatch(name -> name.startsWith("eventide-read-"));
    assertThat(
            readers(
                () ->
                    api.send(
                            HttpMethod.POST,
                            "/streams/threads-in/events",
                            MediaType.APPLICATION_JSON,
                            event)
                        .expect(202)))
        .allMatch(name -> name.startsWith("eventide-read-"));
  }

  /** The threads that read the batches of what {@code post} sent. */
  private static Set<String> readers(Runnable post) {
    READING.clear();
    post.run();
    Set<String> threads = Set.copyOf(READING);
    assertThat(threads).isNotEmpty();
    return threads;
  }
}
