package io.eventide.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.Timing;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Runs of entries: in order, none lost, each within its bound unless one record exceeds it. */
class PaneStreamItemTest {
  @Test
  void runsTakeTheEntriesInOrderWithinTheirBound() {
    Random random = new Random(18);
    for (int round = 0; round < 200; round++) {
      List<PaneEvent> all = new ArrayList<>();
      for (int i = random.nextInt(3000); i >= 0; i--) {
        int length = random.nextInt(8) == 0 ? random.nextInt(20_000) : random.nextInt(600);
        all.add(
            new PaneEvent(
                i + "-0", LogEntryKind.PANE, "k", Timing.EARLY, false, "x".repeat(length)));
      }
      ArrayDeque<PaneEvent> queue = new ArrayDeque<>(all);
      List<PaneEvent> taken = new ArrayList<>();
      while (!queue.isEmpty()) {
        List<PaneEvent> run = PaneStreamItem.Entries.next(queue).events();
        int chars = run.stream().mapToInt(e -> e.json().length()).sum();
        int withoutLast = chars - run.get(run.size() - 1).json().length();
        assertThat(run).isNotEmpty();
        // Full (its last entry took it to the bound), or the rest of the queue.
        assertThat(withoutLast).isLessThan(PaneStreamItem.Entries.MAX_CHARS);
        assertThat(chars >= PaneStreamItem.Entries.MAX_CHARS || queue.isEmpty()).isTrue();
        taken.addAll(run);
      }
      assertThat(taken).containsExactlyElementsOf(all);
    }
  }
}
