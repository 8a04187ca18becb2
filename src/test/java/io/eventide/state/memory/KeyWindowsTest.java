package io.eventide.state.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.KeyedWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** A key's sorted windows against a tree set of the same windows, whatever order they come in. */
class KeyWindowsTest {
  /** The results' order: start, key, end. */
  private static final Comparator<KeyedWindow> ORDER =
      Comparator.comparingLong(KeyedWindow::start)
          .thenComparing(KeyedWindow::key)
          .thenComparingLong(KeyedWindow::end);

  /**
   * Each step is a window start: an even step adds the window if it is not there and removes it if
   * it is; an odd one removes the first. After each, the windows and every read from a start,
   * inclusive or not, are the tree's, the read's window being of this key or of one before or after
   * it.
   */
  @Property(tries = 300)
  void holdsWhatATreeHolds(
      @ForAll @Size(max = 200) List<@IntRange(min = 0, max = 40) Integer> steps) {
    KeyWindows windows = new KeyWindows("k");
    TreeSet<KeyedWindow> tree = new TreeSet<>(ORDER);
    for (int i = 0; i < steps.size(); i++) {
      KeyedWindow w = window(steps.get(i));
      if (i % 3 == 2 && !tree.isEmpty()) {
        KeyedWindow first = tree.pollFirst();
        windows.remove(first.start(), first.end());
      } else if (tree.add(w)) {
        windows.add(w.start(), w.end());
      } else {
        tree.remove(w);
        windows.remove(w.start(), w.end());
      }
      assertThat(all(windows)).containsExactlyElementsOf(tree);
      assertThat(windows.isEmpty()).isEqualTo(tree.isEmpty());
    }
    for (String key : List.of("a", "k", "z")) {
      for (int start = -1; start <= 41; start++) {
        KeyedWindow from = new KeyedWindow(key, start * 60_000L, start * 60_000L + 60_000);
        assertThat(all(windows).subList(windows.from(from, true), windows.size()))
            .containsExactlyElementsOf(tree.tailSet(from, true));
        assertThat(all(windows).subList(windows.from(from, false), windows.size()))
            .containsExactlyElementsOf(tree.tailSet(from, false));
      }
    }
  }

  @Property(tries = 50)
  void windowsThatComeInOrderAndLeaveFromTheFrontStayInOrder(
      @ForAll @IntRange(min = 1, max = 50) int held) {
    KeyWindows windows = new KeyWindows("k");
    for (int start = 0; start < 1000; start++) {
      windows.add(window(start).start(), window(start).end());
      if (windows.size() > held) {
        windows.remove(window(start - held).start(), window(start - held).end());
      }
      assertThat(windows.size()).isEqualTo(Math.min(start + 1, held));
      assertThat(windows.get(0)).isEqualTo(window(Math.max(0, start - held + 1)));
      assertThat(windows.get(windows.size() - 1)).isEqualTo(window(start));
    }
  }

  private static KeyedWindow window(int start) {
    return new KeyedWindow("k", start * 60_000L, start * 60_000L + 60_000);
  }

  private static List<KeyedWindow> all(KeyWindows windows) {
    List<KeyedWindow> out = new ArrayList<>(windows.size());
    for (int i = 0; i < windows.size(); i++) {
      out.add(windows.get(i));
    }
    return out;
  }
}
