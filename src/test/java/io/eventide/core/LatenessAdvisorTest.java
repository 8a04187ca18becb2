package io.eventide.core;

import static io.eventide.core.CoreTester.event;
import static io.eventide.core.CoreTester.fromSource;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lateness advisor, fed events of known needs through the core on a manual clock: its figures
 * against the exact quantiles of those needs, within the sketch's rank error.
 */
class LatenessAdvisorTest {
  private static final long START = 2_000_000_000_000L;

  /** One-second windows and five minutes of lateness: events that needed more are dropped. */
  private static final String SECONDS =
      """
      {"window": {"type": "fixed", "size": "1s"}, "aggregate": {"type": "count"},
       "allowedLateness": "PT5M", "watermark": {"idleTimeout": "1h"}}
      """;

  @Test
  void theSuggestionsAreTheExactQuantilesOfNeedWithinTheSketchsError() {
    CoreTester p = CoreTester.of(SECONDS, 2, START);
    Random random = new Random(35);
    long[] needs = new long[40_000];
    int n = 0;
    // Each round the watermark stands at the last millisecond of a second: an event of that second
    // is on time, one d seconds earlier needed d seconds, whatever its millisecond.
    for (int round = 0; round < 80; round++) {
      long watermark = 1_000_000_000_000L + round * 7_200_000L + 999;
      p.postWatermark(null, watermark);
      List<String> batch = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        long seconds =
            random.nextDouble() < 0.7 ? 0 : 1 + (long) (-60 * Math.log(random.nextDouble()));
        long ms = seconds == 0 ? 0 : random.nextInt(1000);
        batch.add(event("k" + i % 7, watermark - 999 - seconds * 1000 + ms, 1));
        needs[n++] = seconds * 1000;
      }
      IngestResult result = p.post(batch.toArray(String[]::new));
      assertThat(result.accepted() + result.expired()).isEqualTo(500);
    }
    Arrays.sort(needs);

    LatenessRecord overall = p.lateness().overall();
    assertThat(overall.events()).isEqualTo(needs.length);
    assertThat(overall.onTime()).isEqualTo(Arrays.stream(needs).filter(d -> d == 0).count());
    assertThat(overall.maxNeed()).isEqualTo(needs[needs.length - 1]);
    double error = overall.rankError();
    // Only late events are sketched: the error over all events is the sketch's times their share.
    assertThat(error).isGreaterThan(0).isLessThan(0.006);
    for (double fraction : new double[] {0.5, 0.9, 0.99, 0.999}) {
      long suggested = overall.need(fraction);
      assertThat(rankBelow(needs, suggested))
          .as("rank of the %s suggestion %d ms", fraction, suggested)
          .isLessThanOrEqualTo(fraction + error);
      assertThat(rankAtOrBelow(needs, suggested)).isGreaterThanOrEqualTo(fraction - error);
    }
    // The on-time events alone make half of them: no lateness is needed for that.
    assertThat(overall.need(0.5)).isZero();
    assertThat(overall.kept(300_000)).isCloseTo(rankAtOrBelow(needs, 300_000), within(error));
    assertThat(overall.kept(300_000)).isLessThan(1.0);
  }

  @Test
  void anEventInSeveralWindowsNeedsWhatItsEarliestWindowNeeds() {
    CoreTester p =
        CoreTester.of(
            """
            {"window": {"type": "sliding", "size": "10s", "period": "5s"},
             "aggregate": {"type": "count"}, "allowedLateness": "PT1M"}
            """,
            1,
            START);
    p.postWatermark(null, 100_000);
    // In [85 s, 95 s) and [90 s, 100 s): the first ended at 95 s, 5 s (and 1 ms) before.
    p.post(event("k", 92_000, 1));
    LatenessRecord r = p.lateness().overall();
    assertThat(r.events()).isEqualTo(1);
    assertThat(r.maxNeed()).isEqualTo(100_000 - 94_999);
  }

  @Test
  void aSessionEventNeedsWhatItsOwnGapNeeds() {
    CoreTester p =
        CoreTester.of(
            """
            {"window": {"type": "session", "gap": "30s"}, "aggregate": {"type": "count"},
             "allowedLateness": "PT1M"}
            """,
            1,
            START);
    p.postWatermark(null, 100_000);
    p.post(event("k", 60_000, 1), event("k", 80_000, 1));
    LatenessRecord r = p.lateness().overall();
    // [60 s, 90 s) ended 10 s before the watermark; [80 s, 110 s) is open.
    assertThat(r.onTime()).isEqualTo(1);
    assertThat(r.maxNeed()).isEqualTo(100_000 - 89_999);
  }

  @Test
  void sourcesAreKeptApartUpToTheCapAndTogetherBeyond() {
    CoreTester p =
        CoreTester.of(
            SECONDS, 1, START, RenderBudget.UNBOUNDED, IngestBounds.DEFAULT.withLatenessSources(2));
    p.postWatermark(null, 10_999);
    p.post(
        fromSource("k", 10_000, "a"),
        fromSource("k", 8_000, "b"),
        fromSource("k", 7_000, "c"),
        fromSource("k", 10_500, "d"));
    LatenessReport report = p.lateness();
    assertThat(report.sources()).containsOnlyKeys("a", "b");
    assertThat(report.sources().get("a").onTime()).isEqualTo(1);
    assertThat(report.sources().get("b").maxNeed()).isEqualTo(2_000);
    assertThat(report.others().events()).isEqualTo(2);
    assertThat(report.others().maxNeed()).isEqualTo(3_000);
    assertThat(report.overall().events()).isEqualTo(4);
  }

  @Test
  void nothingObservedIsAnEmptyReport() {
    LatenessReport report = CoreTester.of(SECONDS, 1, START).lateness();
    assertThat(report.overall().events()).isZero();
    assertThat(report.sources()).isEmpty();
    assertThat(report.others()).isNull();
  }

  /** The fraction of {@code sorted} strictly below {@code value}. */
  private static double rankBelow(long[] sorted, long value) {
    int i = Arrays.binarySearch(sorted, value);
    int at = i < 0 ? -i - 1 : first(sorted, i);
    return (double) at / sorted.length;
  }

  /** The fraction of {@code sorted} at or below {@code value}. */
  private static double rankAtOrBelow(long[] sorted, long value) {
    int i = Arrays.binarySearch(sorted, value);
    int after = i < 0 ? -i - 1 : last(sorted, i) + 1;
    return (double) after / sorted.length;
  }

  private static int first(long[] sorted, int i) {
    while (i > 0 && sorted[i - 1] == sorted[i]) {
      i--;
    }
    return i;
  }

  private static int last(long[] sorted, int i) {
    while (i + 1 < sorted.length && sorted[i + 1] == sorted[i]) {
      i++;
    }
    return i;
  }

  private static org.assertj.core.data.Offset<Double> within(double error) {
    return org.assertj.core.data.Offset.offset(error);
  }
}
