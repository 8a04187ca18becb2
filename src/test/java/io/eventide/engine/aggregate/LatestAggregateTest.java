package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatestAggregateTest {

  private final LatestAggregate latest = new LatestAggregate();

  @Test
  void greatestTimestampWinsWhateverTheArrivalOrder() {
    List<Element> elements =
        List.of(Element.payload("t5", 5), Element.payload("t9", 9), Element.payload("t2", 2));
    assertThat(Element.extract(latest, elements)).isEqualTo("t9");
  }

  @Test
  void onATieTheLaterAddedWins() {
    List<Element> elements =
        List.of(
            Element.payload("first", 4), Element.payload("second", 4), Element.payload("old", 1));
    assertThat(Element.extract(latest, elements)).isEqualTo("second");
  }

  @Test
  void onAMergeTieFromWins() {
    LatestAggregate.Latest into = Element.fold(latest, List.of(Element.payload("into", 4)));
    latest.merge(into, Element.fold(latest, List.of(Element.payload("from", 4))));
    assertThat(latest.extract(into)).isEqualTo("from");
  }

  @Test
  void mergeKeepsTheLaterOfTheTwo() {
    LatestAggregate.Latest into = Element.fold(latest, List.of(Element.payload("into", 8)));
    latest.merge(into, Element.fold(latest, List.of(Element.payload("from", 3))));
    assertThat(latest.extract(into)).isEqualTo("into");

    LatestAggregate.Latest empty = latest.create();
    latest.merge(empty, into);
    assertThat(latest.extract(empty)).isEqualTo("into");
  }

  @Test
  void aNullPayloadCanBeTheLatest() {
    List<Element> elements = List.of(Element.payload("old", 1), Element.payload(null, 2));
    assertThat(Element.extract(latest, elements)).isNull();
  }

  @Test
  void emptyIsNull() {
    assertThat(latest.extract(latest.create())).isNull();
    Map<String, Object> emptyPartial = new LinkedHashMap<>();
    emptyPartial.put("timestamp", null);
    emptyPartial.put("value", null);
    assertThat(latest.partial(latest.create())).isEqualTo(emptyPartial);
  }

  @Test
  void partialCarriesTheTimestamp() {
    LatestAggregate.Latest acc = Element.fold(latest, List.of(Element.payload(Map.of("a", 1), 7)));
    assertThat(Outputs.asMap(latest.partial(acc)))
        .containsExactly(Map.entry("timestamp", 7L), Map.entry("value", Map.of("a", 1)));
  }

  @Test
  void usesPayloadsNotNumbers() {
    assertThat(latest.type()).isEqualTo("latest");
    assertThat(latest.usesPayload()).isTrue();
    assertThat(latest.needsNumber()).isFalse();
  }
}
