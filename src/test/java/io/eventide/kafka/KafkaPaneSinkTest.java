package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.ops.PrometheusScrape;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class KafkaPaneSinkTest extends KafkaIntegrationTest {
  private static final String COUNT_OF_THREE =
      """
      {"window": {"type": "fixed", "size": "10m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 3}},
       "accumulation": "%s", "aggregate": {"type": "sum"},
       "sinks": {"kafka": {"mode": "%s"}}}
      """;

  @Test
  void panesArriveWithTheirKeysHeadersAndOrder() throws Exception {
    JsonNode answer = define("sink-order", COUNT_OF_THREE.formatted("accumulating", "changelog"));
    assertThat(answer.at("/sinks/kafka/topic").stringValue())
        .isEqualTo("eventide.sink-order.panes");
    // Accumulating into changelog: no warning about the pairing.
    assertThat(answer.at("/warnings").toString()).doesNotContain("topic");

    // Worked example 1: panes [5,8,3], [5,8,3,15,19,23], [5,8,3,15,19,23,9,13,10].
    double[][] batches = {{5, 8, 3}, {15, 19, 23}, {9, 13, 10}};
    for (double[] batch : batches) {
      ingest(
          "sink-order",
          event("a", "12:01:00", batch[0], null),
          event("a", "12:02:00", batch[1], null),
          event("a", "12:03:00", batch[2], null));
    }

    List<ConsumerRecord<String, byte[]>> records = read("eventide.sink-order.panes", 3);
    assertThat(records).hasSize(3);
    for (ConsumerRecord<String, byte[]> r : records) {
      assertThat(r.key()).isEqualTo("a@2024-05-01T12:00:00.000Z/2024-05-01T12:10:00.000Z");
      assertThat(header(r, KafkaPaneRecords.TIMING)).isEqualTo("EARLY");
      assertThat(header(r, KafkaPaneRecords.FINAL)).isEqualTo("false");
      assertThat(header(r, KafkaPaneRecords.RETRACTION)).isEqualTo("false");
    }
    assertThat(records)
        .extracting(r -> header(r, KafkaPaneRecords.PANE_INDEX))
        .containsExactly("0", "1", "2");
    assertThat(records)
        .extracting(r -> value(r).get("value").doubleValue())
        .containsExactly(16.0, 73.0, 105.0);
    JsonNode first = value(records.get(0));
    assertThat(first.get("pipeline").stringValue()).isEqualTo("sink-order");
    assertThat(first.at("/pane/index").intValue()).isZero();

    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, records.get(0).topic());
      Config config = admin.describeConfigs(List.of(topic)).all().get().get(topic);
      assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
    }
  }

  @Test
  void compositeKeysKeyTheRecordsInTheirStringForm() {
    define(
        "sink-named",
        """
        {"window": {"type": "fixed", "size": "10m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 2}},
         "event": {"key": ["/region", "/endpoint"]},
         "aggregates": {"n": {"type": "count"}, "bytes": {"type": "sum", "field": "/bytes"}},
         "sinks": {"kafka": {}}}
        """);
    String event =
        "{\"region\":\"eu\",\"endpoint\":\"/pay\",\"bytes\":%d,"
            + "\"timestamp\":\"2024-05-01T12:01:00Z\"}";
    ingest("sink-named", event.formatted(10), event.formatted(32));

    List<ConsumerRecord<String, byte[]>> records = read("eventide.sink-named.panes", 1);
    assertThat(records).hasSize(1);
    assertThat(records.get(0).key())
        .isEqualTo("eu|/pay@2024-05-01T12:00:00.000Z/2024-05-01T12:10:00.000Z");
    JsonNode pane = value(records.get(0));
    assertThat(pane.get("key").toString()).isEqualTo("{\"region\":\"eu\",\"endpoint\":\"/pay\"}");
    assertThat(pane.at("/value/n").intValue()).isEqualTo(2);
    assertThat(pane.at("/value/bytes").doubleValue()).isEqualTo(42.0);
  }

  @Test
  void theOutboxIsScrapedByPrometheus() {
    assertThat(PrometheusScrape.text(client))
        .contains("eventide_kafka_send_failures_total ")
        .contains("eventide_kafka_outbox_dropped_total ")
        .contains("eventide_kafka_outbox_pending ");
  }

  @Test
  void accumulatingIntoAppendIsAcceptedWithAWarning() {
    JsonNode answer = define("sink-risky", COUNT_OF_THREE.formatted("accumulating", "append"));
    assertThat(answer.get("warnings").toString()).contains("highest pane index");
  }

  /** Issue 35: a late pane on the topic names the pane it supersedes and the figure it had. */
  @Test
  void aLatePaneSaysWhatItRestates() {
    define(
        "sink-restates",
        """
        {"window": {"type": "fixed", "size": "10m"}, "allowedLateness": "1h",
         "accumulation": "accumulating", "aggregate": {"type": "sum"},
         "sinks": {"kafka": {"mode": "changelog"}}}
        """);
    ingest("sink-restates", event("a", "12:01:00", 40, null), event("a", "12:02:00", 1, null));
    // Moves the watermark past the window: the on-time pane, then a late one.
    ingest("sink-restates", event("c", "12:15:00", 0, null));
    ingest("sink-restates", event("a", "12:05:00", 4, null));

    List<JsonNode> panes =
        read("eventide.sink-restates.panes", 2).stream()
            .filter(r -> r.key().startsWith("a@"))
            .map(KafkaIntegrationTest::value)
            .toList();
    assertThat(panes)
        .extracting(p -> p.at("/pane/timing").stringValue())
        .containsExactly("ON_TIME", "LATE");
    assertThat(panes.get(0).has("restates")).isFalse();
    assertThat(panes.get(1).get("value").doubleValue()).isEqualTo(45.0);
    assertThat(panes.get(1).get("restates").toString()).isEqualTo("{\"index\":0,\"value\":41}");
  }

  /**
   * Issue 35: with finals, a window that closes without a closing pane (the default closing
   * behaviour, nothing since its on-time pane) has that pane sent again, marked final.
   */
  @Test
  void aWindowThatClosesWithoutAPaneHasItsLastPaneSentAgainAsFinal() {
    JsonNode answer =
        define(
            "sink-finals",
            """
            {"window": {"type": "fixed", "size": "10m"}, "allowedLateness": "PT10M",
             "aggregate": {"type": "sum"},
             "sinks": {"kafka": {"mode": "append", "finals": true}}}
            """);
    assertThat(answer.at("/sinks/kafka/finals").booleanValue()).isTrue();
    ingest("sink-finals", event("a", "12:01:00", 40, null), event("a", "12:02:00", 2, null));
    // Past the window's end: its on-time pane. Past its end plus the lateness: it closes.
    ingest("sink-finals", event("c", "12:15:00", 0, null));
    ingest("sink-finals", event("c", "12:25:00", 0, null));

    List<ConsumerRecord<String, byte[]>> records =
        read("eventide.sink-finals.panes", 3).stream()
            .filter(r -> r.key().startsWith("a@"))
            .toList();
    assertThat(records).hasSize(2);
    assertThat(records).extracting(ConsumerRecord::key).containsOnly(records.get(0).key());
    assertThat(records)
        .extracting(r -> header(r, KafkaPaneRecords.PANE_INDEX))
        .containsExactly("0", "0");
    assertThat(records)
        .extracting(r -> header(r, KafkaPaneRecords.TIMING))
        .containsExactly("ON_TIME", "ON_TIME");
    assertThat(records)
        .extracting(r -> header(r, KafkaPaneRecords.FINAL))
        .containsExactly("false", "true");
    JsonNode onTime = value(records.get(0));
    JsonNode fixed = value(records.get(1));
    assertThat(onTime.get("final").booleanValue()).isFalse();
    assertThat(fixed.get("final").booleanValue()).isTrue();
    // The same record otherwise, so that a consumer that upserts or de-duplicates by key and
    // pane index counts it once.
    assertThat(((tools.jackson.databind.node.ObjectNode) fixed.deepCopy()).put("final", false))
        .isEqualTo(onTime);
    assertThat(addWithSign(records)).containsExactly(Map.entry("a@12:00", 42.0));
  }

  @Test
  void withoutFinalsAWindowClosesSilently() {
    JsonNode answer =
        define(
            "sink-no-finals",
            """
            {"window": {"type": "fixed", "size": "10m"}, "allowedLateness": "PT10M",
             "aggregate": {"type": "sum"}, "sinks": {"kafka": {}}}
            """);
    assertThat(answer.at("/sinks/kafka/finals").booleanValue()).isFalse();
    ingest("sink-no-finals", event("a", "12:01:00", 40, null));
    ingest("sink-no-finals", event("c", "12:15:00", 0, null));
    ingest("sink-no-finals", event("c", "12:25:00", 0, null));
    assertThat(read("eventide.sink-no-finals.panes", 2))
        .filteredOn(r -> r.key().startsWith("a@"))
        .singleElement()
        .satisfies(r -> assertThat(header(r, KafkaPaneRecords.FINAL)).isEqualTo("false"));
  }

  @Test
  void upsertingConsumerEndsWithTheRightTotalsInEveryMode() {
    // Two keys, two windows, panes early, on time and late, then a drain; the totals are the sums.
    Map<String, Double> expected = Map.of("a@12:00", 1 + 2 + 3 + 4 + 5.0, "b@12:00", 10 + 20.0);
    for (String[] pairing :
        new String[][] {
          {"accumulating", "changelog"},
          {"discarding", "append"},
          {"retracting", "append"},
          {"retracting", "changelog"}
        }) {
      String name = "totals-" + pairing[0] + "-" + pairing[1];
      define(
          name,
          """
          {"window": {"type": "fixed", "size": "10m"},
           "trigger": {"type": "afterWatermark",
                       "early": {"type": "afterCount", "count": 2},
                       "late": {"type": "afterCount", "count": 1}},
           "allowedLateness": "1h",
           "accumulation": "%s", "aggregate": {"type": "sum"},
           "sinks": {"kafka": {"mode": "%s"}}}
          """
              .formatted(pairing[0], pairing[1]));
      ingest(name, event("a", "12:01:00", 1, null), event("a", "12:02:00", 2, null));
      ingest(name, event("b", "12:03:00", 10, null), event("a", "12:04:00", 3, null));
      // Moves the watermark past the window: the on-time panes.
      ingest(name, event("c", "12:15:00", 0, null));
      ingest(name, event("a", "12:05:00", 4, null), event("b", "12:06:00", 20, null));
      ingest(name, event("a", "12:07:00", 5, null));
      drain(name);

      List<ConsumerRecord<String, byte[]>> records =
          read("eventide." + name + ".panes", 1, Duration.ofSeconds(2));
      assertSameOrderPerKey(records);
      Map<String, Double> totals =
          pairing[1].equals("changelog") ? upsert(records) : addWithSign(records);
      totals.remove("c@12:10");
      assertThat(totals).as(name).isEqualTo(expected);
    }
  }

  /** A changelog consumer: per key and window, the non-retraction record of highest pane index. */
  private static Map<String, Double> upsert(List<ConsumerRecord<String, byte[]>> records) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Double> totals = new HashMap<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      if (header(r, KafkaPaneRecords.RETRACTION).equals("true")) {
        continue;
      }
      int i = Integer.parseInt(header(r, KafkaPaneRecords.PANE_INDEX));
      String window = window(r);
      if (index.getOrDefault(window, -1) < i) {
        index.put(window, i);
        totals.put(window, value(r).get("value").doubleValue());
      }
    }
    return totals;
  }

  /**
   * An append consumer: adds every record once (a record is identified by key, window, pane index
   * and retraction flag), retractions with a minus sign.
   */
  private static Map<String, Double> addWithSign(List<ConsumerRecord<String, byte[]>> records) {
    Set<String> seen = new HashSet<>();
    Map<String, Double> totals = new HashMap<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      String retraction = header(r, KafkaPaneRecords.RETRACTION);
      if (!seen.add(r.key() + "#" + header(r, KafkaPaneRecords.PANE_INDEX) + "#" + retraction)) {
        continue;
      }
      double v = value(r).get("value").doubleValue();
      totals.merge(window(r), retraction.equals("true") ? -v : v, Double::sum);
    }
    return totals;
  }

  /** "a@12:00" for the record of key a and the window starting at 12:00. */
  private static String window(ConsumerRecord<String, byte[]> r) {
    JsonNode v = value(r);
    return v.get("key").stringValue() + "@" + v.at("/window/start").stringValue().substring(11, 16);
  }
}
