package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.sink.PaneEvent;
import io.netty.channel.ChannelOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;
import reactor.netty.http.client.HttpClient;

/**
 * A dashboard that stops reading holds up neither ingestion nor the other dashboards, and is cut
 * off only once its position has left the pane log's retention: until then it gets everything when
 * it reads again, after that a {@code behind} notice with where to resume.
 */
@LiveRuntimeTest
@TestPropertySource(
    properties = "eventide.state.pane-log-max-length=" + SlowSubscriberTest.RETENTION)
class SlowSubscriberTest {
  static final int RETENTION = 2000;
  private static final int BATCH = 32;

  /**
   * Panes are large (8 KB) so that what a connection that is not read can hold (the kernel's
   * buffers of a few MB and one page of the log on the server) is a fraction of the log.
   */
  private static final String BIG_VALUE = "\"" + "x".repeat(8 * 1024) + "\"";

  @LocalServerPort int port;

  @Test
  void aSubscriberThatStopsReadingIsCutOffOnlyPastTheLogsRetention() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "ticker",
        """
        {"window": {"type": "fixed", "size": "1m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "aggregate": {"type": "collect"}}
        """);
    LiveApi slowClient =
        LiveApi.over(port, HttpClient.newConnection().option(ChannelOption.SO_RCVBUF, 4096));
    try (PaneStream fast = api.panes("ticker", "");
        PaneStream slow = slowClient.panes("ticker", "", 1);
        PaneStream stopped = slowClient.panes("ticker", "", 1)) {
      // Within the retention: the subscribers that read nothing meanwhile get every pane later.
      List<PaneStream.Received> fastGot = publish(api, fast, RETENTION / 2 / BATCH);
      slow.more(Long.MAX_VALUE);
      List<PaneStream.Received> slowGot = slow.next(fastGot.size());
      assertThat(ids(slowGot)).isEqualTo(ids(fastGot));

      // Past the retention, the one still not reading falls out of the log; ingestion went on
      // all along (every batch above and below was accepted whole) and the others kept up.
      fastGot.addAll(publish(api, fast, 2 * RETENTION / BATCH));
      assertThat(ids(slow.next(fastGot.size() - slowGot.size())))
          .isEqualTo(ids(fastGot).subList(slowGot.size(), fastGot.size()));
      assertThat(ids(fastGot)).doesNotHaveDuplicates().isSortedAccordingTo(PaneEvent::compareIds);

      stopped.more(Long.MAX_VALUE);
      stopped.awaitEnd();
      List<PaneStream.Received> stoppedGot = stopped.drained();
      PaneStream.Received notice = stoppedGot.remove(stoppedGot.size() - 1);
      assertThat(notice.type()).isEqualTo("behind");
      assertThat(stoppedGot).extracting(PaneStream.Received::type).containsOnly("pane");
      // What it got is an unbroken prefix, and the notice says where it stands and where the log
      // now starts.
      assertThat(ids(stoppedGot)).isEqualTo(ids(fastGot).subList(0, stoppedGot.size()));
      assertThat(stoppedGot.size()).isLessThan(fastGot.size() - RETENTION);
      assertThat(notice.data().get("position").asString())
          .isEqualTo(stoppedGot.get(stoppedGot.size() - 1).id());
      String resumeFrom = notice.data().get("resumeFrom").asString();
      int kept = ids(fastGot).indexOf(resumeFrom) + 1;
      assertThat(fastGot.size() - kept).isBetween(1, RETENTION);
      try (PaneStream resumed = api.resume("ticker", resumeFrom)) {
        assertThat(ids(resumed.next(fastGot.size() - kept)))
            .isEqualTo(ids(fastGot).subList(kept, fastGot.size()));
      }
    }
  }

  /** Posts {@code batches} batches of one pane per key; returns what the fast subscriber got. */
  private static List<PaneStream.Received> publish(LiveApi api, PaneStream fast, int batches) {
    List<String> batch = new ArrayList<>();
    for (int k = 0; k < BATCH; k++) {
      batch.add(
          "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":%s}"
              .formatted(k, BIG_VALUE));
    }
    String body = "[" + String.join(",", batch) + "]";
    List<PaneStream.Received> got = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      assertThat(api.events("ticker", body).get("accepted").asInt()).isEqualTo(BATCH);
      got.addAll(fast.next(BATCH));
    }
    assertThat(got).extracting(PaneStream.Received::type).containsOnly("pane");
    return got;
  }

  private static List<String> ids(List<PaneStream.Received> events) {
    return events.stream().map(PaneStream.Received::id).toList();
  }
}
