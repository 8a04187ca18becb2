package io.eventide.core.read;

import static io.eventide.core.read.EventReaderTest.describe;
import static io.eventide.core.read.EventReaderTest.reader;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * CloudEvents in the JSON event format, read by {@link EventReader} in one streaming pass: the
 * examples of the specification (formats/json-format.md, bindings/http-protocol-binding.md and
 * kafka-protocol-binding.md, version 1.0.2), the required attributes, and the data's fields through
 * the pipeline's pointers.
 */
class CloudEventReaderTest {
  /** Sums {@code appinfoB} per {@code appinfoA}, the fields of the specification's examples. */
  private static final EventReader APP_INFO =
      reader(
          "{'window':{'type':'global'},'aggregate':{'type':'sum'},"
              + "'event':{'key':'/appinfoA','value':'/appinfoB'}}");

  /** The default pointers: key, timestamp, value, id and source. */
  private static final EventReader DEFAULTS =
      reader("{'window':{'type':'global'},'aggregate':{'type':'sum'}}");

  private static final long APRIL_5_17_31 = 1_522_949_460_000L;

  /** The JSON-format example with JSON object data (json-format.md, 3.2), extensions and all. */
  private static final String C234 =
      """
      {
          "specversion" : "1.0",
          "type" : "com.example.someevent",
          "source" : "/mycontext",
          "subject": null,
          "id" : "C234-1234-1234",
          "time" : "2018-04-05T17:31:00Z",
          "comexampleextension1" : "value",
          "comexampleothervalue" : 5,
          "datacontenttype" : "application/json",
          "data" : {
              "appinfoA" : "abc",
              "appinfoB" : 123,
              "appinfoC" : true
          }
      }
      """;

  /** Reads one CloudEvent, written with single quotes for double. */
  static EventReadResult read(EventReader reader, String text) {
    return readAsIs(reader, text.replace('\'', '"'));
  }

  /** Reads one CloudEvent, written as it is. */
  static EventReadResult readAsIs(EventReader reader, String text) {
    EventTexts texts = new EventTexts(1);
    texts.addCloudEvent(text.getBytes(StandardCharsets.UTF_8));
    try (EventReader.Reading reading = reader.reading(texts)) {
      return reading.read(0);
    }
  }

  private static Event event(String key, long time, double value, String id, String source) {
    return new Event(key, time, new double[] {value}, null, null, id, source, "/time");
  }

  @Test
  void readsTheSpecificationsJsonExampleThroughThePointersInsideItsData() {
    assertThat(read(APP_INFO, C234))
        .usingRecursiveComparison()
        .isEqualTo(event("abc", APRIL_5_17_31, 123, "C234-1234-1234", "/mycontext"));
  }

  @Test
  void refusesTheSpecificationsExamplesWhoseDataIsNotJson() {
    // Binary data of a Thrift content type, and an XML document as a string (json-format.md, 3.2).
    assertThat(
            read(
                APP_INFO,
                """
                {"specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext",
                 "id": "A234-1234-1234", "time": "2018-04-05T17:31:00Z",
                 "comexampleextension1": "value", "comexampleothervalue": 5,
                 "datacontenttype": "application/vnd.apache.thrift.binary",
                 "data_base64": "AQID"}
                """))
        .isEqualTo(
            new InvalidEvent(
                "/datacontenttype",
                "must declare JSON data (application/json, or a type ending in +json) for the"
                    + " pipeline to read its fields (got 'application/vnd.apache.thrift.binary')"));
    assertThat(
            read(
                APP_INFO,
                """
                {"specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext",
                 "id": "B234-1234-1234", "time": "2018-04-05T17:31:00Z",
                 "unsetextension": null, "datacontenttype": "application/xml",
                 "data": "<much wow=\\"xml\\"/>"}
                """))
        .satisfies(r -> assertThat(((InvalidEvent) r).path()).isEqualTo("/datacontenttype"));
    // The Kafka binding's structured example declares XML over an object: refused all the same.
    assertThat(
            read(
                APP_INFO,
                C234.replace("\"application/json\"", "\"application/xml\"")
                    .replace("C234", "K234")))
        .satisfies(r -> assertThat(((InvalidEvent) r).path()).isEqualTo("/datacontenttype"));
  }

  @Test
  void refusesDataThatIsAJsonStringAsTheSpecificationsLastExampleHas() {
    // json-format.md, 3.2: a literal JSON string and no datacontenttype, which means JSON.
    assertThat(
            readAsIs(
                APP_INFO,
                """
                {"specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext",
                 "subject": null, "id": "D234-1234-1234", "time": "2018-04-05T17:31:00Z",
                 "comexampleextension1": "value", "comexampleothervalue": 5,
                 "data": "I'm just a string"}
                """))
        .isEqualTo(new InvalidEvent("/data", "must be a JSON object"));
  }

  @Test
  void readsTheSpecificationsBatchExampleEventByEvent() {
    String second =
        """
        {"specversion": "1.0", "type": "com.example.someotherevent", "source": "/mycontext/9",
         "id": "C234-1234-1234", "time": "2018-04-05T17:31:05Z",
         "comexampleextension1": "value", "comexampleothervalue": 5,
         "datacontenttype": "application/json",
         "data": {"appinfoA": "abc", "appinfoB": 123, "appinfoC": true}}
        """;
    String first =
        """
        {"specversion": "1.0", "type": "com.example.someevent", "source": "/mycontext/4",
         "id": "B234-1234-1234", "time": "2018-04-05T17:31:00Z",
         "datacontenttype": "application/vnd.apache.thrift.binary", "data_base64": "AQID"}
        """;
    EventTexts batch = new EventTexts(2);
    batch.addCloudEvent(first.getBytes(StandardCharsets.UTF_8));
    batch.addCloudEvent(second.getBytes(StandardCharsets.UTF_8));
    try (EventReader.Reading reading = APP_INFO.reading(batch)) {
      assertThat(((InvalidEvent) reading.read(0)).path()).isEqualTo("/datacontenttype");
      assertThat(reading.read(1))
          .usingRecursiveComparison()
          .isEqualTo(event("abc", APRIL_5_17_31 + 5_000, 123, "C234-1234-1234", "/mycontext/9"));
    }
  }

  /** The attributes of the HTTP binding's binary example, from its headers, by name. */
  private static Map<String, String> bindingExample() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("specversion", "1.0");
    headers.put("type", "com.example.someevent");
    headers.put("time", "2018-04-05T17:31:00Z");
    headers.put("id", "C234-1234-1234");
    headers.put("source", "/mycontext");
    headers.put("comexampleextension1", "value");
    headers.put("comexampleothervalue", "5");
    headers.put("datacontenttype", "application/json; charset=utf-8");
    return headers;
  }

  /**
   * The HTTP binding's binary example (its headers, and JSON data as the body) reads as the same
   * event as the structured one; so does the Kafka binding's, whose headers are not encoded.
   */
  @Test
  void aBinaryModeEventReadsAsItsStructuredForm() {
    Map<String, String> headers = bindingExample();
    byte[] data =
        "{\n  \"appinfoA\" : \"abc\",\n  \"appinfoB\" : 123,\n  \"appinfoC\" : true\n}"
            .getBytes(StandardCharsets.UTF_8);
    String structured = new String(CloudEvents.fromBinary(headers, data), StandardCharsets.UTF_8);
    assertThat(read(APP_INFO, structured))
        .usingRecursiveComparison()
        .isEqualTo(read(APP_INFO, C234));

    // Data of another content type travels as data_base64, refused by its content type.
    headers.put("datacontenttype", "application/xml");
    String xml =
        new String(
            CloudEvents.fromBinary(headers, "<much wow=\"xml\"/>".getBytes(StandardCharsets.UTF_8)),
            StandardCharsets.UTF_8);
    assertThat(xml).contains("\"data_base64\":");
    assertThat(((InvalidEvent) read(APP_INFO, xml)).path()).isEqualTo("/datacontenttype");

    // Data declared JSON that is not one JSON value cannot add members of its own to the event:
    // it travels as data_base64, and is refused for what it is.
    headers.put("datacontenttype", "application/json");
    headers.remove("source");
    String smuggled =
        new String(
            CloudEvents.fromBinary(
                headers, "{\"appinfoA\":\"abc\"},\"source\":\"/elsewhere\"".getBytes()),
            StandardCharsets.UTF_8);
    assertThat(read(APP_INFO, smuggled)).isEqualTo(new InvalidEvent("/source", "is required"));
    headers.put("source", "/mycontext");
    assertThat(
            read(
                APP_INFO,
                new String(
                    CloudEvents.fromBinary(headers, "{\"appinfoA\": ".getBytes()),
                    StandardCharsets.UTF_8)))
        .isEqualTo(
            new InvalidEvent(
                "/data_base64", "must hold JSON: unexpected end of input at column 14"));

    // Names that are no attribute's are left out; an event without data has none.
    headers.put("Not-An-Attribute", "x");
    headers.put("data", "x");
    String bare = new String(CloudEvents.fromBinary(headers, null), StandardCharsets.UTF_8);
    assertThat(bare).doesNotContain("Not-An-Attribute").doesNotContain("\"data\"");
    assertThat(read(APP_INFO, bare))
        .isEqualTo(
            new InvalidEvent("/data", "is required: the pipeline reads the event's fields in it"));
  }

  private static final String REQUIRED =
      "'specversion':'1.0','id':'e1','source':'/sensors/1','type':'reading'";

  private static final String DATA = ",'time':'2018-04-05T17:31:00Z','data':{'key':'k','value':1}}";
  private static final String AT = "{" + REQUIRED + ",'time':'2018-04-05T17:31:00Z',";
  private static final String ENVELOPE = "{" + REQUIRED + ",";

  /**
   * CloudEvents whose required attributes, or a time given, are missing or wrong: each row the
   * event, the path refused and why. The attributes alone say so, without the data.
   */
  private static final String[][] WRONG_ATTRIBUTES = {
    {"{'id':'e1','source':'/s','type':'t'" + DATA, "/specversion", "is required"},
    {
      "{'specversion':'0.3','id':'e1','source':'/s','type':'t'" + DATA,
      "/specversion",
      "must be \"1.0\", the version Eventide reads (got '0.3')"
    },
    {
      "{'specversion':1.0,'id':'e1','source':'/s','type':'t'" + DATA,
      "/specversion",
      "must be a string"
    },
    {"{'specversion':'1.0','source':'/s','type':'t'" + DATA, "/id", "is required"},
    {"{'specversion':'1.0','id':7,'source':'/s','type':'t'" + DATA, "/id", "must be a string"},
    {"{'specversion':'1.0','id':'','source':'/s','type':'t'" + DATA, "/id", "must not be empty"},
    {
      "{'specversion':'1.0','id':'" + "x".repeat(257) + "','source':'/s','type':'t'" + DATA,
      "/id",
      "must be at most 256 characters (got 257)"
    },
    {"{'specversion':'1.0','id':'e1','type':'t'" + DATA, "/source", "is required"},
    {
      "{'specversion':'1.0','id':'e1','source':'a\\u0001','type':'t'" + DATA,
      "/source",
      "must not contain control characters (U+0001 at 1)"
    },
    {"{'specversion':'1.0','id':'e1','source':'/s'" + DATA, "/type", "is required"},
    {"{'specversion':'1.0','id':'e1','source':'/s','type':null" + DATA, "/type", "is required"},
    {
      ENVELOPE + "'time':'yesterday','data':{'key':'k','value':1}}",
      "/time",
      "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'yesterday')"
    },
    {
      ENVELOPE + "'time':1522949460000,'data':{'key':'k','value':1}}",
      "/time",
      "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z, as a string"
    },
    // Wrong attributes are named before wrong data.
    {
      ENVELOPE + "'time':'1969-12-31T23:59:59Z','data':[]}",
      "/time",
      "must not be before" + " 1970-01-01T00:00:00Z (got -1000 ms)"
    },
  };

  /** CloudEvents whose attributes are right but whose data is not: each row as above. */
  private static final String[][] WRONG_DATA = {
    {
      ENVELOPE + "'data':{'key':'k','value':1}}",
      "/time",
      "is required, or a timestamp at /data/timestamp"
    },
    {AT + "'data':{'value':1}}", "/data/key", "is required"},
    {AT + "'data':{'key':'k','value':'x'}}", "/data/value", "must be a finite number"},
    {AT + "'data':null}", "/data", "is required: the pipeline reads the event's fields in it"},
    {AT + "'data':[{'key':'k'}]}", "/data", "must be a JSON object"},
    {ENVELOPE + "'datacontenttype':7,'data':{}}", "/datacontenttype", "must be a string"},
    {ENVELOPE + "'data':{},'data_base64':'e30='}", "/data_base64", "must not be given with data"},
    {ENVELOPE + "'data_base64':'not base64!'}", "/data_base64", "must be Base64 (RFC 4648)"},
    {
      ENVELOPE + "'data_base64':'" + base64("hello") + "'}",
      "/data_base64",
      "must hold JSON: 'hello' is not a JSON value at column 1"
    },
    {
      ENVELOPE + "'data_base64':'" + base64("[1]") + "'}", "/data_base64", "must hold a JSON object"
    },
  };

  @Test
  void namesTheRequiredAttributeThatIsMissingOrWrong() {
    List<String[]> rows = new ArrayList<>(List.of(WRONG_ATTRIBUTES));
    rows.addAll(List.of(WRONG_DATA));
    rows.add(new String[] {"[" + REQUIRED.replace(':', ',') + "]", "", "must be a JSON object"});
    for (String[] row : rows) {
      assertThat(read(DEFAULTS, row[0])).as(row[0]).isEqualTo(new InvalidEvent(row[1], row[2]));
    }
  }

  /**
   * What a post of one CloudEvent is refused for before it is applied: its attributes, checked
   * alone in one pass that skips the data, to the verdict the reader gives; data that is wrong is
   * left to the reader.
   */
  @Test
  void checksTheAttributesAloneToTheReadersVerdict() {
    for (String[] row : WRONG_ATTRIBUTES) {
      assertThat(attributeProblem(row[0])).as(row[0]).isEqualTo(new InvalidEvent(row[1], row[2]));
    }
    for (String[] row : WRONG_DATA) {
      assertThat(attributeProblem(row[0])).as(row[0]).isNull();
    }
    assertThat(attributeProblem(C234)).isNull();
  }

  /** A binary-mode event's attributes, every one a string, are checked alike. */
  @Test
  void checksABinaryModeEventsAttributesByName() {
    Map<String, String> attributes = bindingExample();
    assertThat(CloudEvents.attributeProblem(attributes)).isNull();
    attributes.remove("time");
    assertThat(CloudEvents.attributeProblem(attributes)).isNull();
    attributes.put("time", "noon");
    assertThat(CloudEvents.attributeProblem(attributes))
        .isEqualTo(
            new InvalidEvent(
                "/time",
                "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'noon')"));
    attributes.put("time", "2018-04-05t17:31:00z");
    attributes.put("source", "");
    assertThat(CloudEvents.attributeProblem(attributes))
        .isEqualTo(new InvalidEvent("/source", "must not be empty"));
    attributes.remove("id");
    assertThat(CloudEvents.attributeProblem(attributes))
        .isEqualTo(new InvalidEvent("/id", "is required"));
    attributes.put("specversion", "0.3");
    assertThat(CloudEvents.attributeProblem(attributes).path()).isEqualTo("/specversion");
  }

  /** {@link CloudEvents#attributeProblem(JsonParser)} of one CloudEvent, which it reads whole. */
  private static InvalidEvent attributeProblem(String text) {
    try (JsonParser p = JsonMapper.shared().createParser(text.replace('\'', '"'))) {
      p.nextToken();
      InvalidEvent problem = CloudEvents.attributeProblem(p);
      assertThat(p.currentToken()).as(text).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).as(text).isNull();
      return problem;
    }
  }

  @Test
  void takesItsIdAndSourceFromItsAttributesAndItsTimeFromTheDataWhenItHasNone() {
    // The pointers of id and source are a plain event's; a CloudEvent has its own.
    Event e =
        (Event)
            read(
                DEFAULTS,
                "{"
                    + REQUIRED
                    + ",'data':{'key':'k','timestamp':'2018-04-05T17:31:00Z','value':2,"
                    + "'id':'other','source':'other'}}");
    assertThat(e)
        .usingRecursiveComparison()
        .isEqualTo(
            new Event(
                "k",
                APRIL_5_17_31,
                new double[] {2},
                null,
                null,
                "e1",
                "/sensors/1",
                "/data/timestamp"));
    // RFC 3339 lets T and Z be written in lower case; an offset is a time zone.
    Map<String, Long> times =
        Map.of(
            "2018-04-05t19:31:00+02:00",
            APRIL_5_17_31,
            "2018-04-05t17:31:00.5z",
            APRIL_5_17_31 + 500);
    times.forEach(
        (time, millis) ->
            assertThat(
                    ((Event)
                            read(
                                DEFAULTS,
                                "{"
                                    + REQUIRED
                                    + ",'time':'"
                                    + time
                                    + "','data':{'key':'k','value':1}}"))
                        .timestamp())
                .as(time)
                .isEqualTo(millis));
  }

  @Test
  void decodesDataThatCameAsBase64OfJson() {
    String encoded = base64("{\"key\":\"k\",\"value\":4}");
    assertThat(
            read(
                DEFAULTS,
                "{"
                    + REQUIRED
                    + ",'time':'2018-04-05T17:31:00Z','datacontenttype':'application/json',"
                    + "'data_base64':'"
                    + encoded
                    + "'}"))
        .usingRecursiveComparison()
        .isEqualTo(event("k", APRIL_5_17_31, 4, "e1", "/sensors/1"));
  }

  /** A Kafka poll mixes CloudEvents and plain events: each text is read as what it is. */
  @Test
  void aBatchMixesCloudEventsAndPlainEvents() {
    EventTexts batch = new EventTexts(1);
    batch.addCloudEvent(
        ("{" + REQUIRED + ",'time':'2018-04-05T17:31:00Z','data':{'key':'k','value':1}}")
            .replace('\'', '"')
            .getBytes(StandardCharsets.UTF_8));
    for (int i = 1; i < 100; i++) {
      String text = "{'key':'k','timestamp':0,'value':" + i + (i == 70 ? ",'id':'e1'}" : "}");
      if (i == 70) {
        batch.addCloudEvent(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
      } else {
        batch.add(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
      }
    }
    try (EventReader.Reading reading = DEFAULTS.reading(batch)) {
      assertThat(((Event) reading.read(0)).source()).isEqualTo("/sensors/1");
      for (int i = 1; i < 100; i++) {
        EventReadResult read = reading.read(i);
        if (i == 70) {
          // A plain event sent as a CloudEvent is no CloudEvent.
          assertThat(read).isEqualTo(new InvalidEvent("/specversion", "is required"));
        } else {
          assertThat(((Event) read).values()).containsExactly((double) i);
        }
      }
    }
  }

  @Test
  void refusesANameGivenTwiceInTheEnvelopeOrItsData() {
    for (String text :
        List.of(
            "{" + REQUIRED + ",'id':'e2','data':{'key':'k'}}",
            "{" + REQUIRED + ",'data':{'key':'k','key':'j'}}",
            "{" + REQUIRED + ",'ext':{'a':1,'a':2},'data':{'key':'k'}}")) {
      assertThat(read(DEFAULTS, text)).as(text).isSameAs(UnreadableEvent.INSTANCE);
    }
  }

  /**
   * A CloudEvent reads the same in one streaming pass as through its tree, whatever its attributes
   * and data hold: random envelopes around the random events of {@link EventReaderTest}, whose id
   * and source pointers a CloudEvent's attributes stand in for.
   */
  @Test
  void readsTheSameStreamingAsThroughTheTree() {
    EventReader streaming = EventReaderTest.everyPart(false);
    EventReader tree = EventReaderTest.everyPart(true);
    Random random = new Random(33);
    for (int n = 0; n < 20_000; n++) {
      String text = randomCloudEvent(random);
      assertThat(describe(read(streaming, text))).as(text).isEqualTo(describe(read(tree, text)));
    }
  }

  private static final String[][] ATTRIBUTES = {
    {"specversion", "'1.0'", "'1.0'", "'1.0'", "'0.3'", "1"},
    {"id", "'e1'", "'e2'", "''", "7"},
    {"source", "'/a'", "'/b'", "''", "{}"},
    {"type", "'t'", "'t'", "null"},
    {"time", "'2018-04-05T17:31:00Z'", "'2018-04-05t17:31:00z'", "'noon'", "0"},
    {"datacontenttype", "'application/json'", "'text/plain'", "'application/ld+json'", "[]"},
    {"ext", "'x'", "{'a':[1]}", "{'a':1,'a':2}"}
  };

  private static String randomCloudEvent(Random random) {
    List<String> members = new ArrayList<>();
    for (String[] attribute : ATTRIBUTES) {
      if (random.nextInt(10) > 0) {
        String value =
            random.nextInt(5) > 0
                ? attribute[1 + random.nextInt(Math.min(2, attribute.length - 1))]
                : attribute[1 + random.nextInt(attribute.length - 1)];
        members.add("'" + attribute[0] + "':" + value);
      }
    }
    String data = EventReaderTest.randomEvent(random);
    switch (random.nextInt(12)) {
      case 0 -> {}
      case 1 -> members.add("'data_base64':'" + base64(data.replace('\'', '"')) + "'");
      case 2 -> members.add("'data':" + EventReaderTest.value(random, 2));
      default -> members.add("'data':" + data);
    }
    java.util.Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
