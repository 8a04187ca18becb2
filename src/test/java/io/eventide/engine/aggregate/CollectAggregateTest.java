package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollectAggregateTest {

  private final CollectAggregate collect = new CollectAggregate();

  @Test
  void keepsPayloadsInArrivalOrderIncludingNulls() {
    List<Element> elements =
        List.of(
            Element.payload(Map.of("k", 1), 5),
            Element.payload(null, 1),
            Element.payload("x", 3),
            Element.payload(List.of(true), 2));
    assertThat(Outputs.asList(Element.extract(collect, elements)))
        .containsExactly(Map.of("k", 1), null, "x", List.of(true));
  }

  @Test
  void mergePutsIntoFirst() {
    ArrayList<Object> into = Element.fold(collect, List.of(Element.payload("a", 9)));
    collect.merge(into, Element.fold(collect, List.of(Element.payload("b", 1))));
    assertThat(Outputs.asList(collect.extract(into))).containsExactly("a", "b");
  }

  @Test
  void extractIsASnapshot() {
    ArrayList<Object> acc = Element.fold(collect, List.of(Element.payload("a", 0)));
    Object early = collect.extract(acc);
    Element.payload("b", 1).addTo(collect, acc);
    assertThat(Outputs.asList(early)).containsExactly("a");
  }

  @Test
  void emptyIsAnEmptyList() {
    assertThat(Outputs.asList(collect.extract(collect.create()))).isEmpty();
  }

  @Test
  void usesPayloadsNotNumbers() {
    assertThat(collect.type()).isEqualTo("collect");
    assertThat(collect.usesPayload()).isTrue();
    assertThat(collect.needsNumber()).isFalse();
    assertThat(Arrays.asList(collect.additive(), collect.partial(collect.create())))
        .containsExactly(false, null);
  }
}
