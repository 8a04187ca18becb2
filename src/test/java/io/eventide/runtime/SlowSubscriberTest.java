package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.sink.PaneEvent;
import io.netty.channel.ChannelOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.netty.http.client.HttpClient;

/**
 * A dashboard that stops reading must not hold up ingestion or the other dashboards: it is cut off
 * with an overflow notice once its buffer is full, while a fast one receives every pane.
 */
@LiveRuntimeTest
class SlowSubscriberTest {
  /**
   * Panes are large (16 KB) so that what the slow connection can hold before the server's buffer
   * fills (the kernel's send buffer of at most a few MB, a few hundred panes queued in the reactive
   * pipeline, a small client receive window) is a fraction of what is published.
   */
  private static final int BATCHES = 60;

  private static final String BIG_VALUE = "\"" + "x".repeat(16 * 1024) + "\"";

  @LocalServerPort int port;

  @Test
  void aSlowSubscriberIsCutOffWithANoticeWhileAFastOneGetsEverything() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "ticker",
        """
        {"window": {"type": "fixed", "size": "1m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "aggregate": {"type": "collect"}}
        """);
    // A batch emits one pane per key: no more than a subscriber's buffer holds, so a subscriber
    // that has caught up can never overflow on one batch.
    List<String> batch = new ArrayList<>();
    for (int k = 0; k < LiveRuntimeTest.SSE_BUFFER; k++) {
      batch.add(
          "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":%s}"
              .formatted(k, BIG_VALUE));
    }
    String body = "[" + String.join(",", batch) + "]";
    LiveApi slowClient =
        LiveApi.over(port, HttpClient.newConnection().option(ChannelOption.SO_RCVBUF, 4096));
    int published = BATCHES * LiveRuntimeTest.SSE_BUFFER;
    try (PaneStream fast = api.panes("ticker", "");
        PaneStream slow = slowClient.panes("ticker", "", 1)) {
      List<PaneStream.Received> fastGot = new ArrayList<>();
      for (int b = 0; b < BATCHES; b++) {
        assertThat(api.events("ticker", body).get("accepted").asInt())
            .isEqualTo(LiveRuntimeTest.SSE_BUFFER);
        fastGot.addAll(fast.next(LiveRuntimeTest.SSE_BUFFER));
      }
      assertThat(fastGot).extracting(PaneStream.Received::type).containsOnly("pane");
      assertThat(fastGot).hasSize(published);
      assertThat(ids(fastGot)).doesNotHaveDuplicates().isSortedAccordingTo(PaneEvent::compareIds);

      slow.more(Long.MAX_VALUE);
      slow.awaitEnd();
      List<PaneStream.Received> slowGot = slow.drained();
      PaneStream.Received notice = slowGot.remove(slowGot.size() - 1);
      assertThat(notice.type()).isEqualTo("overflow");
      assertThat(notice.data().get("bufferSize").asInt()).isEqualTo(LiveRuntimeTest.SSE_BUFFER);
      assertThat(notice.data().get("reason").asString()).contains("disconnected");
      // What the slow subscriber got is an unbroken prefix, and the notice says where it ends.
      assertThat(slowGot).extracting(PaneStream.Received::type).containsOnly("pane");
      assertThat(ids(slowGot)).isEqualTo(ids(fastGot).subList(0, slowGot.size()));
      assertThat(slowGot.size()).isLessThan(published);
      assertThat(notice.data().get("lastDeliveredId").asString())
          .isEqualTo(slowGot.get(slowGot.size() - 1).id());
    }
  }

  private static List<String> ids(List<PaneStream.Received> events) {
    return events.stream().map(PaneStream.Received::id).toList();
  }
}
