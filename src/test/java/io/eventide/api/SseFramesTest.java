package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.Timing;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneStreamItem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.core.ResolvableType;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.codec.ServerSentEventHttpMessageWriter;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import reactor.core.publisher.Flux;

/**
 * A run of entries is written as the events Spring's own SSE writer would write for them one by
 * one: the writer is the oracle, over random runs of every kind of entry and of records with
 * characters outside ASCII and line breaks.
 */
class SseFramesTest {
  private static final ResolvableType SSE =
      ResolvableType.forClassWithGenerics(ServerSentEvent.class, String.class);

  @Test
  void aRunIsTheEventsSpringsWriterWritesForItsEntries() {
    Random random = new Random(18);
    for (int round = 0; round < 500; round++) {
      List<PaneEvent> run = new ArrayList<>();
      List<ServerSentEvent<String>> expected = new ArrayList<>();
      int size = 1 + random.nextInt(40);
      for (int i = 0; i < size; i++) {
        LogEntryKind kind = LogEntryKind.values()[random.nextInt(LogEntryKind.values().length)];
        String id = random.nextInt(1_000_000) + "-" + random.nextInt(10);
        String json = record(random);
        run.add(new PaneEvent(id, kind, "k", Timing.ON_TIME, false, json));
        expected.add(
            kind == LogEntryKind.SNAPSHOT
                ? ServerSentEvent.builder("{\"position\":\"" + id + "\",\"pane\":" + json + "}")
                    .event("snapshot")
                    .build()
                : kind == LogEntryKind.PROGRESS
                    ? ServerSentEvent.builder(json).event("progress").build()
                    : ServerSentEvent.builder(json).id(id).event(kind.wireName()).build());
      }
      assertThat(text(SseFrames.of(new PaneStreamItem.Entries(run))))
          .isEqualTo(springWrites(expected));
    }
  }

  @Test
  void theEndsOfAStreamAreSpringsEventsToo() {
    assertThat(text(SseFrames.of(new PaneStreamItem.SnapshotEnd("5-1", 3))))
        .isEqualTo(
            springWrites(
                List.of(
                    ServerSentEvent.builder("{\"position\":\"5-1\",\"windows\":3}")
                        .id("5-1")
                        .event("snapshot-end")
                        .build())));
    assertThat(text(SseFrames.of(new PaneStreamItem.Behind("5-1", "9-0"))))
        .startsWith("event:behind\ndata:{\"reason\":")
        .endsWith(",\"position\":\"5-1\",\"resumeFrom\":\"9-0\"}\n\n");
  }

  /** A record of random length, now and then with characters of two, three and four bytes. */
  private static String record(Random random) {
    StringBuilder s = new StringBuilder("{\"key\":\"");
    int length = random.nextInt(random.nextInt(10) == 0 ? 3000 : 200);
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(60)) {
        case 0 -> s.append('é');
        case 1 -> s.append('€');
        case 2 -> s.append("😀");
        case 3 -> s.append('\n');
        default -> s.append((char) ('a' + random.nextInt(26)));
      }
    }
    return s.append("\"}").toString();
  }

  private static String springWrites(List<ServerSentEvent<String>> events) {
    MockServerHttpResponse response = new MockServerHttpResponse();
    new ServerSentEventHttpMessageWriter()
        .write(Flux.fromIterable(events), SSE, MediaType.TEXT_EVENT_STREAM, response, Map.of())
        .block();
    return response.getBodyAsString().block();
  }

  private static String text(byte[] frames) {
    return new String(frames, StandardCharsets.UTF_8);
  }
}
