package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimerQueueTest {
  private record Timer(long time, long seq, WindowState window) {}

  private static final Comparator<Timer> ORDER =
      Comparator.comparingLong(Timer::time).thenComparingLong(Timer::seq);

  @Test
  void takesTimersByTimeThenByTheOrderTheyWereSet() {
    for (int seed = 0; seed < 200; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      // Spans of a few buckets to many, so that timers share buckets, times, or neither.
      long span = 1L << rnd.nextInt(4, 20);
      List<Timer> expected = new ArrayList<>();
      List<Timer> taken = new ArrayList<>();
      PriorityQueue<Timer> reference = new PriorityQueue<>(ORDER);
      TimerQueue queue = new TimerQueue();
      KeyState key = new KeyState("k");
      long now = rnd.nextLong(-span, span);
      long seq = 0;
      for (int step = 0; step < 2000; step++) {
        if (rnd.nextInt(3) > 0) {
          // Mostly ahead of the clock, sometimes behind it, sometimes exactly at a shared time.
          long time = rnd.nextInt(4) == 0 ? now : now + rnd.nextLong(-span / 8, span);
          WindowState w = new WindowState(time, time + 1);
          Timer t = new Timer(time, seq++, w);
          reference.add(t);
          queue.push(time, key, w);
        } else {
          now += rnd.nextLong(span / 4 + 1);
          while (!reference.isEmpty() && reference.peek().time() < now) {
            expected.add(reference.poll());
          }
          while (!queue.isEmpty() && queue.peekTime() < now) {
            assertThat(queue.peekKey()).isSameAs(key);
            WindowState w = queue.peekWindow();
            taken.add(new Timer(queue.peekTime(), -1, w));
            queue.pop();
          }
        }
        assertThat(queue.size()).isEqualTo(reference.size());
      }
      assertThat(taken)
          .extracting(Timer::window)
          .containsExactlyElementsOf(expected.stream().map(Timer::window).toList());
      assertThat(taken)
          .extracting(Timer::time)
          .containsExactlyElementsOf(expected.stream().map(Timer::time).toList());
    }
  }

  @Test
  void timesAtTheEndsOfTheLongRangeKeepTheirOrder() {
    TimerQueue queue = new TimerQueue();
    KeyState key = new KeyState("k");
    long[] times = {Long.MAX_VALUE, Long.MIN_VALUE, 0, -1, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};
    for (long t : times) {
      queue.push(t, key, new WindowState(0, 1));
    }
    List<Long> out = new ArrayList<>();
    while (!queue.isEmpty()) {
      out.add(queue.peekTime());
      queue.pop();
    }
    assertThat(out)
        .containsExactly(
            Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, Long.MAX_VALUE - 1, Long.MAX_VALUE);
  }
}
