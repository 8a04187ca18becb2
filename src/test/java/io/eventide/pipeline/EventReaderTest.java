package io.eventide.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
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
        List.of(EventReader.Lane.field(null, pointers.value(), volume, needsNumber, usesPayload)));
  }

  private static JsonNode json(String text) {
    return JsonMapper.shared().readTree(text.replace('\'', '"'));
  }

  @Test
  void readsAllParts() {
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':1500,'value':2.5,'id':7,'source':'s1'}")))
        .usingRecursiveComparison()
        .isEqualTo(new Event("k", 1500, new double[] {2.5}, null, null, "7", "s1"));
  }

  @Test
  void turnsNumericKeysIntoStrings() {
    assertThat(((Event) NUMBERS.read(json("{'key':42,'timestamp':0,'value':1}"))).key())
        .isEqualTo("42");
  }

  @Test
  void readsIsoTimestamps() {
    assertThat(
            ((Event) NUMBERS.read(json("{'key':'k','timestamp':'1970-01-01T00:01:00Z','value':1}")))
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
            reader.read(
                json(
                    "{'user':{'name':'ann'},'at':5,'m':{'amount':10,'qty':3},"
                        + "'meta':{'id':'e1','from':'web'}}")))
        .usingRecursiveComparison()
        .isEqualTo(new Event("ann", 5, new double[] {10}, null, new double[] {3}, "e1", "web"));
  }

  @Test
  void passesThePayloadAsPlainJava() {
    Event e =
        (Event) PAYLOADS.read(json("{'key':'k','timestamp':0,'value':{'a':[1,'x',true,null]}}"));
    assertThat(e.payloads()[0]).isEqualTo(Map.of("a", java.util.Arrays.asList(1, "x", true, null)));
    assertThat(e.values()[0]).isNaN();
  }

  @Test
  void allowsAMissingValueWhenNoNumberIsNeeded() {
    Event e = (Event) PAYLOADS.read(json("{'key':'k','timestamp':0}"));
    assertThat(e.payloads()[0]).isNull();
    assertThat(e.values()[0]).isNaN();
  }

  @Test
  void reportsThePathAndReasonOfWhatIsWrong() {
    assertThat(NUMBERS.read(json("{'timestamp':0,'value':1}")))
        .isEqualTo(new InvalidEvent("/key", "is required"));
    assertThat(NUMBERS.read(json("{'key':{'a':1},'timestamp':0,'value':1}")))
        .isEqualTo(new InvalidEvent("/key", "must be a string or a number"));
    assertThat(NUMBERS.read(json("{'key':'k','value':1}")))
        .isEqualTo(new InvalidEvent("/timestamp", "is required"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':'soon','value':1}")))
        .isEqualTo(
            new InvalidEvent(
                "/timestamp",
                "must be epoch milliseconds or an ISO-8601 timestamp with a zone, such as"
                    + " 2024-05-01T12:00:00Z (got 'soon')"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':0}")))
        .isEqualTo(new InvalidEvent("/value", "is required"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':0,'value':'12'}")))
        .isEqualTo(new InvalidEvent("/value", "must be a finite number"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':0,'value':1e999}")))
        .isEqualTo(new InvalidEvent("/value", "must be a finite number"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':0,'value':1,'id':[]}")))
        .isEqualTo(new InvalidEvent("/id", "must be a string or a number"));
    assertThat(NUMBERS.read(json("{'key':'k','timestamp':0,'value':1,'source':1}")))
        .isEqualTo(new InvalidEvent("/source", "must be a string"));
    assertThat(NUMBERS.read(json("[1]"))).isEqualTo(new InvalidEvent("", "must be a JSON object"));
  }

  @Test
  void checksTheVolume() {
    EventReader ohlc = single(EventPointers.DEFAULT, "/volume", true, false);
    assertThat(ohlc.read(json("{'key':'k','timestamp':0,'value':1,'volume':'lots'}")))
        .isEqualTo(new InvalidEvent("/volume", "must be a finite number"));
    assertThat(((Event) ohlc.read(json("{'key':'k','timestamp':0,'value':1}"))).volumes()[0])
        .isNaN();
  }

  private static EventReader reader(String definition) {
    PipelineDefinition d = PipelineParserTest.parse(definition);
    return EventReader.of(d, d.newAggregate());
  }

  @Test
  void readsACompositeKeyIntoItsStringFormAndNamesAMissingField() {
    EventReader composite =
        reader(
            "{'window':{'type':'global'},'aggregate':{'type':'count'},"
                + "'event':{'key':['/r','/e']}}");
    assertThat(((Event) composite.read(json("{'r':'eu','e':'a|b','timestamp':0}"))).key())
        .isEqualTo("eu|a\\|b");
    assertThat(KeyFields.split("eu|a\\|b")).containsExactly("eu", "a|b");
    assertThat(composite.read(json("{'r':'eu','timestamp':0}")))
        .isEqualTo(new InvalidEvent("/e", "is required"));
  }

  @Test
  void filtersFirstAndGivesEachNamedAggregateItsLane() {
    EventReader named =
        reader(
            "{'window':{'type':'global'},'filter':'event.status >= 500',"
                + "'aggregates':{'n':{'type':'count'},'kb':{'type':'sum','expr':'event.b / 1024.0'},"
                + "'top':{'type':'max','field':'/ms'}}}");
    assertThat(named.read(json("{'status':200}"))).isEqualTo(FilteredEvent.INSTANCE);
    Event e = (Event) named.read(json("{'status':503,'key':'k','timestamp':0,'b':512,'ms':7}"));
    assertThat(e.values()).containsExactly(Double.NaN, 0.5, 7.0);
    InvalidEvent failed = (InvalidEvent) named.read(json("{'status':503,'key':'k','timestamp':0}"));
    assertThat(failed.path()).isEmpty();
    assertThat(failed.reason()).startsWith("the expr of aggregates.kb failed:");
    assertThat(((InvalidEvent) named.read(json("{'key':'k','timestamp':0}"))).reason())
        .startsWith("the filter failed:");
  }

  @Test
  void roundTripsPlainValues() {
    JsonNode node = json("{'a':[1,2.5,'x',false,null,{'b':12345678901234}]}");
    assertThat(PlainValues.toJson(PlainValues.fromJson(node)).toString())
        .isEqualTo(node.toString());
    assertThat(PlainValues.toJson(List.of(Double.NaN)).toString()).isEqualTo("[null]");
  }
}
