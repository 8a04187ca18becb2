package io.eventide.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventide.definition.EventPointers;
import io.eventide.definition.KeyFields;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PaneRecordsTest {
  private static final KeyFields PLAIN_KEY = EventPointers.DEFAULT.keyFields();

  @Test
  void rendersAPane() {
    Pane pane =
        new Pane(
            "k",
            new Window(0, 60_000),
            List.of("a", "b"),
            null,
            59_999,
            new PaneInfo(0, 0, Timing.ON_TIME, true, true),
            false,
            -1,
            60_000,
            5,
            60_000);
    assertThat(new PaneRecordWriter("clicks", PLAIN_KEY).write(pane))
        .isEqualTo(
            "{\"pipeline\":\"clicks\",\"key\":\"k\","
                + "\"window\":{\"start\":\"1970-01-01T00:00:00.000Z\","
                + "\"end\":\"1970-01-01T00:01:00.000Z\"},"
                + "\"value\":[\"a\",\"b\"],\"timestamp\":\"1970-01-01T00:00:59.999Z\","
                + "\"pane\":{\"index\":0,\"nonSpeculativeIndex\":0,\"timing\":\"ON_TIME\","
                + "\"first\":true,\"last\":true},"
                + "\"retraction\":false,\"final\":true,\"finalAt\":\"1970-01-01T00:01:00.000Z\","
                + "\"emittedAt\":\"1970-01-01T00:00:00.005Z\","
                + "\"watermark\":\"1970-01-01T00:01:00.000Z\"}");
  }

  @Test
  void rendersWhatAPaneRestatesAfterItsPaneInfo() {
    PaneRecordWriter writer = new PaneRecordWriter("p", PLAIN_KEY);
    Map<String, Object> named = new LinkedHashMap<>();
    named.put("total", 41L);
    named.put("n", 3L);
    assertThat(writer.write(restating(Pane.Restatement.of(1, named))))
        .contains(
            "\"last\":false},\"restates\":{\"index\":1,\"value\":{\"total\":41,\"n\":3}},"
                + "\"retraction\":false");
    JsonNode discarding = read(writer.write(restating(Pane.Restatement.indexOnly(1))));
    assertThat(discarding.get("restates").toString()).isEqualTo("{\"index\":1}");
    JsonNode ofNull = read(writer.write(restating(Pane.Restatement.of(1, null))));
    assertThat(ofNull.get("restates").toString()).isEqualTo("{\"index\":1,\"value\":null}");
    JsonNode none = read(writer.write(restating(null)));
    assertThat(none.has("restates")).isFalse();
  }

  @Test
  void rendersAMergeWithTheKeyAsPanesShowItAndTheWindowItWentInto() {
    PaneRecordWriter writer = new PaneRecordWriter("p", new KeyFields(List.of("/shop", "/user")));
    assertThat(writer.writeMerge("s1|ann", new Window(0, 60_000), new Window(0, 100_000)))
        .isEqualTo(
            "{\"pipeline\":\"p\",\"key\":{\"shop\":\"s1\",\"user\":\"ann\"},"
                + "\"window\":{\"start\":\"1970-01-01T00:00:00.000Z\","
                + "\"end\":\"1970-01-01T00:01:00.000Z\"},"
                + "\"into\":{\"start\":\"1970-01-01T00:00:00.000Z\","
                + "\"end\":\"1970-01-01T00:01:40.000Z\"},\"merged\":true}");
    assertThat(
            new PaneRecordWriter("p", PLAIN_KEY)
                .writeMerge("a", new Window(0, 60_000), new Window(0, 100_000)))
        .startsWith("{\"pipeline\":\"p\",\"key\":\"a\",");
  }

  private static Pane restating(Pane.Restatement restates) {
    return new Pane(
        "k",
        new Window(0, 60_000),
        45L,
        null,
        59_999,
        new PaneInfo(2, 2, Timing.LATE, false, false),
        false,
        -1,
        restates,
        120_000,
        5,
        60_000);
  }

  @Test
  void rendersRetractionsPartialsTheGlobalWindowAndTheEndOfTime() {
    Pane pane =
        new Pane(
            "k",
            Window.GLOBAL,
            2.5,
            Map.of("sum", 5.0, "count", 2),
            Time.GLOBAL_MAX_TIMESTAMP,
            new PaneInfo(1, -1, Timing.EARLY, false, false),
            true,
            0,
            Time.GLOBAL_MAX_TIMESTAMP + 1,
            0,
            Time.MAX);
    JsonNode json = read(new PaneRecordWriter("p", PLAIN_KEY).write(pane));
    assertThat(json.get("window").toString()).isEqualTo("{\"global\":true}");
    assertThat(json.get("partial").get("count").asInt()).isEqualTo(2);
    assertThat(json.get("retraction").asBoolean()).isTrue();
    assertThat(json.get("retracts").asInt()).isZero();
    assertThat(json.get("final").asBoolean()).isFalse();
    assertThat(json.get("watermark").stringValue()).isEqualTo("+inf");
    assertThat(json.get("pane").get("nonSpeculativeIndex").asInt()).isEqualTo(-1);
  }

  @Test
  void leavesOutAbsentPartialAndRetracts() {
    JsonNode json = read(new PaneRecordWriter("p", PLAIN_KEY).write(pane("k", 1)));
    assertThat(json.has("partial")).isFalse();
    assertThat(json.has("retracts")).isFalse();
    assertThat(json.get("watermark").stringValue()).isEqualTo("-inf");
  }

  /**
   * Numbers as each type prints them (no NaN or infinity in JSON), text escaped only where JSON
   * must (controls), and a composite key missing a field.
   */
  @Test
  void writesNumbersTextAndCompositeKeysAsTheirTreesPrintedThem() {
    List<Object> values =
        Arrays.asList(
            1.0E20,
            1.0E-7,
            -0.0,
            0.1,
            45.0,
            1e7,
            1e-3,
            Double.MAX_VALUE,
            Double.MIN_VALUE,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            2.5f,
            0.1f,
            Float.NaN,
            3,
            (short) -4,
            (byte) 5,
            Long.MIN_VALUE,
            new BigInteger("-123456789012345678901234567890"),
            new BigDecimal("1.50"),
            new BigDecimal("1E+3"),
            new BigDecimal("-0.000001"),
            true,
            null,
            "\u0000\u001f\t\"\\/\u007f\u2028é中😀\ud800",
            Map.of("a\nb", List.of()));
    Pane pane =
        new Pane(
            "eu|a\\|b",
            Window.GLOBAL,
            values,
            null,
            Time.GLOBAL_MAX_TIMESTAMP,
            new PaneInfo(2, -1, Timing.LATE, false, true),
            true,
            1,
            -1,
            Timestamps.LATEST,
            Time.MIN);
    KeyFields keys = new KeyFields(List.of("/region", "/a~1b", "/missing"));
    String expected =
        "{\"pipeline\":\"p\",\"key\":{\"region\":\"eu\",\"a/b\":\"a|b\",\"missing\":null},"
            + "\"window\":{\"global\":true},\"value\":[1.0E20,1.0E-7,-0.0,0.1,45.0,1.0E7,0.001,"
            + "1.7976931348623157E308,4.9E-324,null,null,2.5,0.10000000149011612,null,3,-4,5,"
            + "-9223372036854775808,-123456789012345678901234567890,1.50,1E+3,-0.000001,true,null,"
            + "\"\\u0000\\u001F\\t\\\"\\\\/\u007f\u2028é中😀\ud800\",{\"a\\nb\":[]}],"
            + "\"timestamp\":\"+294247-01-09T04:00:54.775Z\","
            + "\"pane\":{\"index\":2,\"nonSpeculativeIndex\":-1,\"timing\":\"LATE\","
            + "\"first\":false,\"last\":true},\"retraction\":true,\"retracts\":1,\"final\":true,"
            + "\"finalAt\":\"1969-12-31T23:59:59.999Z\",\"emittedAt\":\"9999-12-31T23:59:59.999Z\","
            + "\"watermark\":\"-inf\"}";
    assertThat(TreePaneRecords.render("p", keys, pane)).isEqualTo(expected);
    assertThat(new PaneRecordWriter("p", keys).write(pane)).isEqualTo(expected);
  }

  /** Many panes through one writer each, so that nothing of one record leaks into the next. */
  @Test
  void writesEveryPaneAsItsTreePrintedIt() {
    RandomPanes random = new RandomPanes(18);
    Map<KeyFields, String> pipelines = new HashMap<>();
    Map<KeyFields, PaneRecordWriter> writers = new HashMap<>();
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      KeyFields keys = random.keys();
      String pipeline = pipelines.computeIfAbsent(keys, k -> random.text(6));
      Pane pane = random.pane(keys);
      String written =
          writers.computeIfAbsent(keys, k -> new PaneRecordWriter(pipeline, k)).write(pane);
      assertEquals(TreePaneRecords.render(pipeline, keys, pane), written, "pane " + i);
      all.append(written);
    }
    // What the panes drew, lest a change to the drawing quietly narrow what is compared.
    assertThat(all)
        .contains("\\u0000", "\\u001F", "😀", "\ud800\"", "-0.0", "E-", "E+", "null", "1.0E22")
        .contains(
            "{\"global\":true}", "\"retracts\"", "\"partial\"", "+inf", "-inf", "+294247-", "1969-")
        .contains("\"key\":{\"b/c\"", "\"q\\\"t\":", "\"tab\\t\":null", "\"open\":");
  }

  @Test
  void startsAfreshAfterARecordItCouldNotFinish() {
    PaneRecordWriter writer = new PaneRecordWriter("p", PLAIN_KEY);
    Object unprintable =
        new Object() {
          @Override
          public String toString() {
            throw new IllegalStateException("cannot print");
          }
        };
    assertThatThrownBy(() -> writer.write(pane("k", List.of(1, unprintable))))
        .hasMessage("cannot print");
    Pane next = pane("k", 2);
    assertThat(writer.write(next)).isEqualTo(TreePaneRecords.render("p", PLAIN_KEY, next));
  }

  @Test
  void writesAfterAPaneLargerThanTheBufferKept() {
    PaneRecordWriter writer = new PaneRecordWriter("p", PLAIN_KEY);
    Pane huge = pane("k", Collections.nCopies(20_000, "0123456789"));
    Pane next = pane("k", 2);
    assertThat(writer.write(huge)).isEqualTo(TreePaneRecords.render("p", PLAIN_KEY, huge));
    assertThat(writer.write(next)).isEqualTo(TreePaneRecords.render("p", PLAIN_KEY, next));
  }

  private static Pane pane(String key, Object value) {
    return new Pane(
        key,
        new Window(0, 10),
        value,
        null,
        9,
        new PaneInfo(0, -1, Timing.EARLY, true, false),
        false,
        -1,
        10,
        0,
        Time.MIN);
  }

  private static JsonNode read(String json) {
    return JsonMapper.shared().readTree(json);
  }
}
