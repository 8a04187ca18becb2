package io.eventide.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.EventPointers;
import io.eventide.definition.KeyFields;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.json.PipelineParserTest;
import io.eventide.definition.json.PlainValues;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class EventReaderTest {
  private static final EventReader NUMBERS = single(EventPointers.DEFAULT, null, true, false);
  private static final EventReader PAYLOADS = single(EventPointers.DEFAULT, null, false, true);

  /** The reader of a single aggregate: one lane, from the value pointer. */
  static EventReader single(
      EventPointers pointers, String volume, boolean needsNumber, boolean usesPayload) {
    return new EventReader(
        pointers,
        null,
        List.of(EventReader.Lane.field(null, pointers.value(), volume, needsNumber, usesPayload)),
        JsonLimits.DEFAULT);
  }

  /** Reads one event, written with single quotes for double. */
  static EventReadResult read(EventReader reader, String text) {
    EventTexts texts = new EventTexts(1);
    texts.add(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    try (EventReader.Reading reading = reader.reading(texts)) {
      return reading.read(0);
    }
  }

  @Test
  void readsAllParts() {
    assertThat(read(NUMBERS, "{'key':'k','timestamp':1500,'value':2.5,'id':7,'source':'s1'}"))
        .usingRecursiveComparison()
        .isEqualTo(new Event("k", 1500, new double[] {2.5}, null, null, "7", "s1", "/timestamp"));
  }

  @Test
  void turnsNumericKeysIntoStrings() {
    assertThat(((Event) read(NUMBERS, "{'key':42,'timestamp':0,'value':1}")).key()).isEqualTo("42");
  }

  @Test
  void readsIsoTimestamps() {
    assertThat(
            ((Event) read(NUMBERS, "{'key':'k','timestamp':'1970-01-01T00:01:00Z','value':1}"))
                .timestamp())
        .isEqualTo(60_000);
  }

  @Test
  void followsTheDefinitionsPointers() {
    EventReader reader =
        single(
            new EventPointers(List.of("/user/name"), "/at", "/m/amount", "/meta/id", "/meta/from"),
            "/m/qty",
            true,
            false);
    assertThat(
            read(
                reader,
                "{'user':{'name':'ann'},'at':5,'m':{'amount':10,'qty':3},"
                    + "'meta':{'id':'e1','from':'web'}}"))
        .usingRecursiveComparison()
        .isEqualTo(
            new Event("ann", 5, new double[] {10}, null, new double[] {3}, "e1", "web", "/at"));
  }

  @Test
  void passesThePayloadAsPlainJava() {
    Event e = (Event) read(PAYLOADS, "{'key':'k','timestamp':0,'value':{'a':[1,'x',true,null]}}");
    assertThat(e.payloads()[0]).isEqualTo(Map.of("a", java.util.Arrays.asList(1, "x", true, null)));
    assertThat(e.values()[0]).isNaN();
  }

  @Test
  void allowsAMissingValueWhenNoNumberIsNeeded() {
    Event e = (Event) read(PAYLOADS, "{'key':'k','timestamp':0}");
    assertThat(e.payloads()[0]).isNull();
    assertThat(e.values()[0]).isNaN();
  }

  @Test
  void reportsThePathAndReasonOfWhatIsWrong() {
    assertThat(read(NUMBERS, "{'timestamp':0,'value':1}"))
        .isEqualTo(new InvalidEvent("/key", "is required"));
    assertThat(read(NUMBERS, "{'key':{'a':1},'timestamp':0,'value':1}"))
        .isEqualTo(new InvalidEvent("/key", "must be a string or a number"));
    assertThat(read(NUMBERS, "{'key':'k','value':1}"))
        .isEqualTo(new InvalidEvent("/timestamp", "is required"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':'soon','value':1}"))
        .isEqualTo(
            new InvalidEvent(
                "/timestamp",
                "must be epoch milliseconds or an ISO-8601 timestamp with a zone, such as"
                    + " 2024-05-01T12:00:00Z (got 'soon')"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':0}"))
        .isEqualTo(new InvalidEvent("/value", "is required"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':0,'value':'12'}"))
        .isEqualTo(new InvalidEvent("/value", "must be a finite number"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':0,'value':1e999}"))
        .isEqualTo(new InvalidEvent("/value", "must be a finite number"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':0,'value':1,'id':[]}"))
        .isEqualTo(new InvalidEvent("/id", "must be a string or a number"));
    assertThat(read(NUMBERS, "{'key':'k','timestamp':0,'value':1,'source':1}"))
        .isEqualTo(new InvalidEvent("/source", "must be a string"));
    assertThat(read(NUMBERS, "[1]")).isEqualTo(new InvalidEvent("", "must be a JSON object"));
  }

  @Test
  void checksTheVolume() {
    EventReader ohlc = single(EventPointers.DEFAULT, "/volume", true, false);
    assertThat(read(ohlc, "{'key':'k','timestamp':0,'value':1,'volume':'lots'}"))
        .isEqualTo(new InvalidEvent("/volume", "must be a finite number"));
    assertThat(((Event) read(ohlc, "{'key':'k','timestamp':0,'value':1}")).volumes()[0]).isNaN();
  }

  static EventReader reader(String definition) {
    PipelineDefinition d = PipelineParserTest.parse(definition);
    return EventReader.of(d, d.newAggregate(), JsonLimits.DEFAULT);
  }

  @Test
  void readsACompositeKeyIntoItsStringFormAndNamesAMissingField() {
    EventReader composite =
        reader(
            "{'window':{'type':'global'},'aggregate':{'type':'count'},"
                + "'event':{'key':['/r','/e']}}");
    assertThat(((Event) read(composite, "{'r':'eu','e':'a|b','timestamp':0}")).key())
        .isEqualTo("eu|a\\|b");
    assertThat(KeyFields.split("eu|a\\|b")).containsExactly("eu", "a|b");
    assertThat(read(composite, "{'r':'eu','timestamp':0}"))
        .isEqualTo(new InvalidEvent("/e", "is required"));
  }

  @Test
  void filtersFirstAndGivesEachNamedAggregateItsLane() {
    EventReader named =
        reader(
            "{'window':{'type':'global'},'filter':'event.status >= 500',"
                + "'aggregates':{'n':{'type':'count'},'kb':{'type':'sum','expr':'event.b / 1024.0'},"
                + "'top':{'type':'max','field':'/ms'}}}");
    assertThat(read(named, "{'status':200}")).isEqualTo(FilteredEvent.INSTANCE);
    Event e = (Event) read(named, "{'status':503,'key':'k','timestamp':0,'b':512,'ms':7}");
    assertThat(e.values()).containsExactly(Double.NaN, 0.5, 7.0);
    InvalidEvent failed = (InvalidEvent) read(named, "{'status':503,'key':'k','timestamp':0}");
    assertThat(failed.path()).isEmpty();
    assertThat(failed.reason()).startsWith("the expr of aggregates.kb failed:");
    assertThat(((InvalidEvent) read(named, "{'key':'k','timestamp':0}")).reason())
        .startsWith("the filter failed:");
  }

  @Test
  void roundTripsPlainValues() {
    JsonNode node =
        JsonMapper.shared()
            .readTree("{'a':[1,2.5,'x',false,null,{'b':12345678901234}]}".replace('\'', '"'));
    assertThat(PlainValues.toJson(PlainValues.fromJson(node)).toString())
        .isEqualTo(node.toString());
    assertThat(PlainValues.toJson(List.of(Double.NaN)).toString()).isEqualTo("[null]");
  }

  /**
   * Every text reads the same in one streaming pass as through its tree, which a reader builds only
   * when an expression needs the whole event (here a filter that passes everything): the two ways
   * must agree on every event, refusal and reason, whatever the text holds.
   */
  @Test
  void readsTheSameStreamingAsThroughTheTree() {
    EventReader streaming = everyPart(false);
    EventReader tree = everyPart(true);
    JsonMapper strict = JsonLimits.DEFAULT.strictMapper();
    Random random = new Random(18);
    for (int n = 0; n < 20_000; n++) {
      String text = randomEvent(random);
      EventReadResult read = read(streaming, text);
      assertThat(describe(read)).as(text).isEqualTo(describe(read(tree, text)));
      // Unreadable exactly when the strict parser, duplicate names and all, refuses the text.
      assertThat(read == UnreadableEvent.INSTANCE).as(text).isEqualTo(!strictlyJson(strict, text));
    }
  }

  /**
   * A reader of every part of an event, through pointers that nest and index: in one streaming
   * pass, or through the tree ({@code tree}: a filter that passes everything makes the reader build
   * it).
   */
  static EventReader everyPart(boolean tree) {
    return reader(
        "{'window':{'type':'global'},"
            + (tree ? "'filter':'true'," : "")
            + "'event':{'key':['/k','/m/0'],'timestamp':'/t','id':'/i','source':'/s'},"
            + "'aggregates':{'n':{'type':'sum','field':'/v'},'p':{'type':'collect','field':'/p/q'},"
            + "'o':{'type':'ohlc','field':'/v','volume':'/w'}}}");
  }

  private static boolean strictlyJson(JsonMapper strict, String text) {
    try {
      strict.readTree(text.replace('\'', '"'));
      return true;
    } catch (tools.jackson.core.JacksonException e) {
      return false;
    }
  }

  /**
   * A name given twice in one object makes the event unreadable wherever the object lies: read,
   * skipped, inside an array, inside a payload, past the names an object compares one by one; the
   * same name in different objects does not.
   */
  @Test
  void refusesANameGivenTwiceInAnyObject() {
    String many = "'n0':0";
    for (int i = 1; i < 20; i++) {
      many += ",'n" + i + "':" + i;
    }
    String event = "'key':'k','timestamp':0,'value':1,";
    List<String> twice =
        List.of(
            "{" + event + "'key':'j'}",
            "{" + event + "'x':1,'x':2}",
            "{" + event + "'x':{'a':1,'b':{'c':1,'c':1}}}",
            "{" + event + "'x':[1,{'a':1,'a':1}]}",
            "{'key':'k','timestamp':0,'value':{'a':1,'a':2}}",
            "{" + event + many + ",'n2':0}",
            "{" + event + many + ",'n19':0}",
            "{" + event + many + ",'n20':0,'n20':1}",
            "{" + event + "'x':{" + many + ",'n7':0}}",
            "[{'a':1,'a':2}]");
    JsonMapper strict = JsonLimits.DEFAULT.strictMapper();
    for (String text : twice) {
      assertThat(strictlyJson(strict, text)).as(text).isFalse();
      assertThat(read(NUMBERS, text)).as(text).isSameAs(UnreadableEvent.INSTANCE);
      assertThat(read(PAYLOADS, text)).as(text).isSameAs(UnreadableEvent.INSTANCE);
    }
    for (String text :
        List.of(
            "{" + event + "'x':{'key':1},'y':{'key':2,'z':{'key':3}},'a':[{'key':1},{'key':2}]}",
            "{" + event + many + "}",
            "{" + event + "'x':{" + many + ",'y':{" + many + "}}}")) {
      assertThat(read(NUMBERS, text)).as(text).isInstanceOf(Event.class);
    }
  }

  /**
   * The lines of a batch share one parser, yet each reads as it would alone: whatever a line holds
   * (half an event, two events, an event over two lines, trailing text) and whatever lies between
   * lines.
   */
  @Test
  void readsEachLineOfABatchAsItWouldAlone() {
    EventReader reader =
        reader(
            "{'window':{'type':'global'},'aggregate':{'type':'sum'},"
                + "'event':{'key':'/k','timestamp':'/t','value':'/v'}}");
    String[] gaps = {"\n", "\n", "\n", "\r\n", "\n  \n", "\n\t\n", "\n\u000b\n", "\n\n"};
    Random random = new Random(19);
    for (int round = 0; round < 1_000; round++) {
      java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
      List<int[]> slices = new java.util.ArrayList<>();
      int lines = 1 + random.nextInt(30);
      for (int n = 0; n < lines; n++) {
        String line = (random.nextInt(8) == 0 ? " " : "") + randomEvent(random).replace('\'', '"');
        if (random.nextInt(10) == 0) {
          line = line.replaceFirst(",", ",\n");
        }
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        slices.add(new int[] {body.size(), bytes.length});
        body.writeBytes(bytes);
        body.writeBytes(gaps[random.nextInt(gaps.length)].getBytes(StandardCharsets.UTF_8));
      }
      byte[] array = body.toByteArray();
      EventTexts batch = new EventTexts(lines);
      slices.forEach(at -> batch.add(array, at[0], at[1]));
      try (EventReader.Reading reading = reader.reading(batch)) {
        for (int i = 0; i < lines; i++) {
          EventTexts alone = new EventTexts(1);
          alone.add(batch.bytes(i));
          String expected;
          try (EventReader.Reading single = reader.reading(alone)) {
            expected = describe(single.read(0));
          }
          assertThat(describe(reading.read(i))).as(batch.string(i)).isEqualTo(expected);
        }
      }
    }
  }

  /**
   * Limits raised above the parser's own defaults hold for the dead letter too: an invalid event
   * nested deeper than Jackson would go by default is read, refused, and kept as it came.
   */
  @Test
  void anEventWithinRaisedLimitsIsKeptAsItCame() {
    EventReader deep =
        new EventReader(
            EventPointers.DEFAULT,
            null,
            List.of(EventReader.Lane.field(null, "/value", null, true, false)),
            new JsonLimits(5_000, 100, 1_000_000));
    String nested = "[".repeat(3_000) + "]".repeat(3_000);
    EventTexts texts = new EventTexts(1);
    texts.add(("{\"timestamp\":0,\"deep\":" + nested + "}").getBytes(StandardCharsets.UTF_8));
    try (EventReader.Reading reading = deep.reading(texts)) {
      assertThat(reading.read(0)).isEqualTo(new InvalidEvent("/key", "is required"));
    }
    assertThat(texts.tree(0).get("deep").isArray()).isTrue();
  }

  private static final String[] SCALARS = {
    "null",
    "true",
    "false",
    "0",
    "-0",
    "7",
    "2147483648",
    "-9223372036854775808",
    "9223372036854775808",
    "1e3",
    "2.5",
    "-0.0",
    "1e400",
    "0.1e-400",
    "12345678901234567890123",
    "'x'",
    "''",
    "'1970-01-01T00:00:01Z'",
    "'2024-05-01T12:00:00+02:00'",
    "'k\\u0001'",
    "'\\ud83d\\ude00'",
    "'\\ud83d'",
    "'é'",
    "'a|b'",
    "253402300799999",
    "253402300800000",
    "-1"
  };

  private static final String[] NAMES = {"k", "m", "t", "i", "s", "v", "w", "p", "q", "0", "x"};

  /** Values that make a field readable, most of the time, so that most events are events. */
  private static final Map<String, String[]> FITTING =
      Map.of(
          "k", new String[] {"'x'", "'a|b'", "7", "'é'", "2.5", "12345678901234567890123"},
          "m", new String[] {"['x']", "[3]", "['y',{}]"},
          "t", new String[] {"0", "1000", "'1970-01-01T00:00:01Z'", "1e3", "2147483648"},
          "v", new String[] {"2.5", "7", "-0.0", "1e3", "2147483648", "0.1"},
          "w", new String[] {"1", "2.5", "null"},
          "p", new String[] {"{'q':[1,'x',{'r':null}]}", "{'q':2.5}", "{'q':'s'}", "{}"},
          "i", new String[] {"'x'", "7", "2.5", "-0"},
          "s", new String[] {"'x'", "'y'"});

  /** An object of the fields the reader reads and others, nested, or now and then not an event. */
  static String randomEvent(Random random) {
    int shape = random.nextInt(40);
    if (shape == 0) {
      return value(random, 2);
    }
    String object = random.nextInt(4) == 0 ? object(random, 3) : fitting(random);
    return switch (shape) {
      case 1 -> object + " {}";
      case 2 -> object.substring(0, random.nextInt(object.length()));
      case 3 -> "{'k':1,'k':2}";
      case 4 -> object + " x";
      default -> object;
    };
  }

  /** An object with the fields the reader reads, mostly with values that fit them. */
  private static String fitting(Random random) {
    StringBuilder out = new StringBuilder("{");
    List<String> names = new java.util.ArrayList<>(List.of(NAMES));
    java.util.Collections.shuffle(names, random);
    for (String name : names) {
      String[] fit = FITTING.get(name);
      String value =
          fit != null && random.nextInt(10) > 0
              ? fit[random.nextInt(fit.length)]
              : value(random, 2);
      if (random.nextInt(12) > 0) {
        out.append(out.length() > 1 ? "," : "")
            .append('\'')
            .append(name)
            .append("':")
            .append(value);
      }
    }
    return out.append('}').toString();
  }

  private static String object(Random random, int depth) {
    StringBuilder out = new StringBuilder("{");
    List<String> names = new java.util.ArrayList<>(List.of(NAMES));
    java.util.Collections.shuffle(names, random);
    int fields = random.nextInt(names.size() + 1);
    for (int f = 0; f < fields; f++) {
      if (f > 0) {
        out.append(',');
      }
      out.append('\'').append(names.get(f)).append("':").append(value(random, depth - 1));
    }
    if (fields > 0 && random.nextInt(8) == 0) {
      // A name given twice, which refuses the whole event wherever the object lies.
      out.append(",'").append(names.get(random.nextInt(fields))).append("':0");
    }
    return out.append('}').toString();
  }

  static String value(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 10 : 7);
    if (kind < 7) {
      return SCALARS[random.nextInt(SCALARS.length)];
    }
    if (kind < 9) {
      return object(random, depth);
    }
    StringBuilder out = new StringBuilder("[");
    int items = random.nextInt(4);
    for (int i = 0; i < items; i++) {
      out.append(i > 0 ? "," : "").append(value(random, depth - 1));
    }
    return out.append(']').toString();
  }

  /** A result as comparable text: records of arrays compare by identity. */
  static String describe(EventReadResult result) {
    if (result instanceof Event e) {
      return String.join(
          " ",
          e.key(),
          Long.toString(e.timestamp()),
          java.util.Arrays.toString(e.values()),
          typed(e.payloads() == null ? null : java.util.Arrays.asList(e.payloads())),
          java.util.Arrays.toString(e.volumes()),
          String.valueOf(e.id()),
          String.valueOf(e.source()),
          e.timestampPath());
    }
    return result.toString();
  }

  /** A payload as text with the type of each number: an Integer and a Long are kept differently. */
  private static String typed(Object payload) {
    if (payload instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      map.forEach((k, v) -> out.append(k).append('=').append(typed(v)).append(';'));
      return out.append('}').toString();
    }
    if (payload instanceof List<?> list) {
      StringBuilder out = new StringBuilder("[");
      list.forEach(v -> out.append(typed(v)).append(';'));
      return out.append(']').toString();
    }
    return payload == null ? "null" : payload + ":" + payload.getClass().getSimpleName();
  }
}
