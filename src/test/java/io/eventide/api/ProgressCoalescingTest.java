package io.eventide.api;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.json.Timestamps;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import io.eventide.runtime.PaneStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Progress on a pane stream is coalesced: however many commits move it, a stream carries at most
 * one progress per read of the log and four a second (runtime.md, "Progress"), never a progress
 * that goes back, and the one held back at the end of a burst still comes. Without the safety net's
 * poll (an hour here), so that only the wake PaneHub schedules for it can send that one.
 */
@LiveRuntimeTest
class ProgressCoalescingTest {
  /** Ten-second windows kept a minute: many windows, each final a minute after its end. */
  private static final String PIPELINE =
      """
      {"window": {"type": "fixed", "size": "10s"}, "allowedLateness": "PT1M",
       "aggregate": {"type": "sum"}}
      """;

  /** How long the producer moves the watermark, as fast as it can. */
  private static final Duration BURST = Duration.ofSeconds(2);

  /** The spacing of progress on a stream (PaneHub.PROGRESS_INTERVAL). */
  private static final Duration INTERVAL = Duration.ofMillis(250);

  @LocalServerPort int port;

  /** Over the inlined settings of {@link LiveRuntimeTest}, which poll every 200 ms. */
  @DynamicPropertySource
  static void withoutThePoll(DynamicPropertyRegistry registry) {
    registry.add("eventide.outputs.sse-poll", () -> "1h");
  }

  @Test
  void aBurstOfCommitsThatEachMoveTheWatermarkSendsAFewProgressesASecondAndTheLast() {
    LiveApi api = LiveApi.on(port);
    api.define("coalesced", PIPELINE);
    Instant base = Instant.parse("2026-01-01T10:00:00Z");
    Instant watermark = base;
    // Warm up the request path: the burst must commit far more often than progress may go out.
    for (long until = System.nanoTime() + BURST.toNanos() / 2; System.nanoTime() < until; ) {
      watermark = watermark.plusSeconds(1);
      api.watermark("coalesced", "{\"watermark\": \"" + watermark + "\"}");
    }
    try (PaneStream stream = api.panes("coalesced", "")) {
      assertThat(finalThrough(stream.nextProgress()))
          .isEqualTo(Timestamps.format(watermark.toEpochMilli()));
      long start = System.nanoTime();
      long end = start + BURST.toNanos();
      int commits = 0;
      while (System.nanoTime() < end) {
        // Every commit moves the watermark (one second); every tenth also brings an event.
        if (commits % 10 == 0) {
          api.events("coalesced", array(event("k", watermark.plusMillis(500).toString(), 1)));
        }
        watermark = watermark.plusSeconds(1);
        api.watermark("coalesced", "{\"watermark\": \"" + watermark + "\"}");
        commits++;
      }
      long elapsed = System.nanoTime() - start;
      String last = Timestamps.format(watermark.toEpochMilli());
      // Many more commits than progress may go out, or the test would prove nothing.
      long allowed = elapsed / INTERVAL.toNanos() + 2;
      assertThat((long) commits).as("commits that moved the watermark").isGreaterThan(3 * allowed);

      // Everything up to the progress that reached the last watermark: nothing is lost at the end.
      List<PaneStream.Received> progress = new ArrayList<>();
      PaneStream.Received latest;
      do {
        latest = stream.nextProgress();
        progress.add(latest);
      } while (!finalThrough(latest).equals(last));
      long heldBack = latest.at() - end;

      List<String> through = progress.stream().map(ProgressCoalescingTest::finalThrough).toList();
      assertThat(through).as("progress never goes back").isSorted().doesNotHaveDuplicates();

      // Per wall-clock second of the burst, at most four (one of tolerance for the client's
      // receiving them a little apart), and over the whole burst at most one per interval.
      TreeMap<Long, Integer> perSecond = new TreeMap<>();
      for (PaneStream.Received p : progress) {
        perSecond.merge((p.at() - start) / 1_000_000_000L, 1, Integer::sum);
      }
      assertThat(perSecond.values()).as("progress per second %s", perSecond).allMatch(n -> n <= 5);
      long spanned = elapsed + Math.max(0, heldBack);
      assertThat((long) progress.size())
          .as(
              "%d progress over %d ms for %d commits",
              progress.size(), spanned / 1_000_000, commits)
          .isLessThanOrEqualTo(spanned / INTERVAL.toNanos() + 2);
      // The last goes out an interval after the burst at most (four allowed on a busy machine):
      // the wake PaneHub schedules for it sends it, not a later poll or commit.
      assertThat(Duration.ofNanos(heldBack)).isLessThan(INTERVAL.multipliedBy(4));

      // Panes went on flowing between them; none of a window a progress before it declared final.
      List<PaneStream.Received> panes = stream.drained();
      assertThat(panes).isNotEmpty().allSatisfy(p -> assertThat(p.type()).isEqualTo("pane"));
      for (PaneStream.Received pane : panes) {
        String finalAt = pane.data().get("finalAt").asString();
        for (PaneStream.Received p : progress) {
          if (p.at() < pane.at()) {
            assertThat(finalThrough(p)).as("progress before %s", pane.data()).isLessThan(finalAt);
          }
        }
      }
    }
  }

  private static String finalThrough(PaneStream.Received progress) {
    return progress.data().get("finalThrough").asString();
  }
}
