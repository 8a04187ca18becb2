package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OhlcAggregateTest {

  private final OhlcAggregate ohlc = new OhlcAggregate();

  @Test
  void barFromOutOfOrderTrades() {
    List<Element> trades =
        List.of(
            Element.trade(11, 2, 30),
            Element.trade(10, 1, 10),
            Element.trade(14, 1, 20),
            Element.trade(9, 4, 50),
            Element.trade(12, 2, 40));
    // vwap = (22 + 10 + 14 + 36 + 24) / 10
    assertThat(Outputs.asMap(Element.extract(ohlc, trades)))
        .containsExactly(
            Map.entry("open", 10L),
            Map.entry("high", 14L),
            Map.entry("low", 9L),
            Map.entry("close", 9L),
            Map.entry("volume", 10L),
            Map.entry("vwap", 10.6));
  }

  @Test
  void tiesOpenWithTheFirstAddedAndCloseWithTheLastAdded() {
    List<Element> trades =
        List.of(Element.trade(1, 1, 5), Element.trade(2, 1, 5), Element.trade(3, 1, 5));
    Map<String, Object> bar = Outputs.asMap(Element.extract(ohlc, trades));
    assertThat(bar.get("open")).isEqualTo(1L);
    assertThat(bar.get("close")).isEqualTo(3L);
  }

  @Test
  void tradesWithoutVolumeCountAsOne() {
    List<Element> trades =
        List.of(Element.trade(2, Double.NaN, 0), Element.trade(5, Double.NaN, 1));
    Map<String, Object> bar = Outputs.asMap(Element.extract(ohlc, trades));
    assertThat(bar.get("volume")).isEqualTo(2L);
    assertThat(bar.get("vwap")).isEqualTo(3.5);
  }

  @Test
  void zeroVolumeHasNoVwap() {
    Map<String, Object> bar = Outputs.asMap(Element.extract(ohlc, List.of(Element.trade(2, 0, 0))));
    assertThat(bar.get("volume")).isEqualTo(0L);
    assertThat(bar.get("vwap")).isNull();
  }

  @Test
  void mergeTakesOpenAndCloseByTimestamp() {
    OhlcAggregate.Bar later =
        Element.fold(ohlc, List.of(Element.trade(20, 1, 100), Element.trade(25, 1, 110)));
    OhlcAggregate.Bar earlier =
        Element.fold(ohlc, List.of(Element.trade(5, 3, 50), Element.trade(7, 1, 60)));
    ohlc.merge(later, earlier);
    assertThat(Outputs.asMap(ohlc.extract(later)))
        .containsExactly(
            Map.entry("open", 5L),
            Map.entry("high", 25L),
            Map.entry("low", 5L),
            Map.entry("close", 25L),
            Map.entry("volume", 6L),
            Map.entry("vwap", 67.0 / 6));
  }

  @Test
  void mergeTiesKeepIntoOpenAndTakeFromClose() {
    OhlcAggregate.Bar into = Element.fold(ohlc, List.of(Element.trade(1, 1, 5)));
    ohlc.merge(into, Element.fold(ohlc, List.of(Element.trade(2, 1, 5))));
    Map<String, Object> bar = Outputs.asMap(ohlc.extract(into));
    assertThat(bar.get("open")).isEqualTo(1L);
    assertThat(bar.get("close")).isEqualTo(2L);
  }

  @Test
  void emptyIsAllNullButVolume() {
    Map<String, Object> empty = new LinkedHashMap<>();
    empty.put("open", null);
    empty.put("high", null);
    empty.put("low", null);
    empty.put("close", null);
    empty.put("volume", 0L);
    empty.put("vwap", null);
    assertThat(ohlc.extract(ohlc.create())).isEqualTo(empty);

    OhlcAggregate.Bar into = ohlc.create();
    ohlc.merge(into, ohlc.create());
    assertThat(ohlc.extract(into)).isEqualTo(empty);
  }

  @Test
  void partialCarriesTimestampsAndSums() {
    OhlcAggregate.Bar bar =
        Element.fold(ohlc, List.of(Element.trade(4, 2, 30), Element.trade(3, 1, 10)));
    assertThat(Outputs.asMap(ohlc.partial(bar)))
        .containsExactly(
            Map.entry("open", 3L),
            Map.entry("openTs", 10L),
            Map.entry("high", 4L),
            Map.entry("low", 3L),
            Map.entry("close", 4L),
            Map.entry("closeTs", 30L),
            Map.entry("volume", 3L),
            Map.entry("priceVolume", 11L));
  }

  @Test
  void flags() {
    assertThat(ohlc.type()).isEqualTo("ohlc");
    assertThat(ohlc.needsNumber()).isTrue();
    assertThat(ohlc.additive()).isFalse();
  }
}
