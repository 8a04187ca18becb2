package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyStateMapTest {

  @Test
  void agreesWithAHashMapOverPutsAndRemoves() {
    SplittableRandom rnd = new SplittableRandom(3);
    KeyStateMap map = new KeyStateMap();
    Map<String, KeyState> reference = new HashMap<>();
    for (int step = 0; step < 200_000; step++) {
      // Few distinct keys at first, so that runs of probes form and removals shift them back.
      String key = "k" + rnd.nextInt(step < 100_000 ? 300 : 5_000);
      KeyState present = reference.get(key);
      assertThat(map.get(key)).isSameAs(present);
      if (present == null) {
        KeyState k = new KeyState(new String(key));
        map.put(k);
        reference.put(key, k);
      } else if (rnd.nextBoolean()) {
        map.remove(present);
        reference.remove(key);
      }
      assertThat(map.size()).isEqualTo(reference.size());
    }
    Set<KeyState> all = new HashSet<>();
    map.forEach(all::add);
    assertThat(all).containsExactlyInAnyOrderElementsOf(reference.values());
  }

  @Test
  void keysWithEqualHashesAreKeptApart() {
    KeyStateMap map = new KeyStateMap();
    // "Aa" and "BB" have the same String hash code.
    KeyState aa = new KeyState("Aa");
    KeyState bb = new KeyState("BB");
    map.put(aa);
    map.put(bb);
    assertThat(map.get("Aa")).isSameAs(aa);
    assertThat(map.get("BB")).isSameAs(bb);
    map.remove(aa);
    assertThat(map.get("Aa")).isNull();
    assertThat(map.get("BB")).isSameAs(bb);
  }
}
