package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.ProcessingClock;
import io.eventide.runtime.LiveApi;
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
 * Issue 34: posted events are read (parsed, their expressions evaluated) off the Netty event loop.
 * A pipeline reads the wall clock just before it reads a batch, on the same thread: the clock here
 * notes the threads that read it there.
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
  void jsonNdjsonAndStreamPostsAreReadOnTheReadingThreads() {
    LiveApi api = LiveApi.on(port);
    String event = LiveApi.event("k", "2026-01-01T10:00:00Z", 1);
    api.define(
        "threads",
        "{\"stream\": \"threads-in\", \"window\": {\"type\": \"fixed\", \"size\": \"1m\"},"
            + " \"aggregate\": {\"type\": \"count\"}}");
    api.events("threads", LiveApi.array(event, event));
    api.ndjson("threads", List.of(event, event));
    api.send(HttpMethod.POST, "/streams/threads-in/events", MediaType.APPLICATION_JSON, event)
        .expect(202);
    assertThat(READING).isNotEmpty().allMatch(name -> name.startsWith("eventide-read-"));
  }
}
