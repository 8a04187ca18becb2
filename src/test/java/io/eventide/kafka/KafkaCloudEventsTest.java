package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.core.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A pipeline's Kafka source takes CloudEvents as the Kafka binding carries them, among plain
 * events: binary mode ({@code ce_} headers, the value the data) and structured mode (a {@code
 * content-type} of the JSON event format, the value the whole event), through a real broker. A
 * record whose attributes are wrong, which no 400 can answer, goes to the dead letters naming the
 * attribute and why.
 */
class KafkaCloudEventsTest extends KafkaIntegrationTest {
  private static final String TOPIC = "eventide.ce-kafka.sales";

  private static RecordHeaders binary(String id, String source, String time) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("ce_specversion", bytes("1.0"));
    if (id != null) {
      headers.add("ce_id", bytes(id));
    }
    headers.add("ce_source", bytes(source));
    headers.add("ce_type", bytes("com.example.sale"));
    headers.add("ce_time", bytes("2024-05-01T" + time + "Z"));
    headers.add("content-type", bytes("application/json"));
    return headers;
  }

  private static RecordHeaders structured() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("content-type", bytes("application/cloudevents+json; charset=UTF-8"));
    return headers;
  }

  private static String structuredSale(String id, String contentType, String key, int value) {
    return """
        {"specversion": "1.0", "id": "%s", "source": "/shops/paris", "type": "com.example.sale",
         "time": "2024-05-01T12:00:02Z", "datacontenttype": "%s",
         "data": {"key": "%s", "value": %d}}
        """
        .formatted(id, contentType, key, value);
  }

  private static void send(
      KafkaProducer<String, byte[]> producer, RecordHeaders headers, String value)
      throws Exception {
    producer
        .send(
            new ProducerRecord<>(
                TOPIC,
                0,
                "k",
                value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                headers))
        .get();
  }

  @Test
  void binaryAndStructuredRecordsAreReadAsCloudEvents() throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
    }
    define(
        "ce-kafka",
        """
        {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "sum"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "source": {"kafka": {"topic": "%s"}}}
        """
            .formatted(TOPIC));
    try (KafkaProducer<String, byte[]> producer = producer()) {
      send(producer, binary("k1", "/shops/berlin", "12:00:01"), "{\"key\": \"eu\", \"value\": 2}");
      send(producer, structured(), structuredSale("k2", "application/json", "eu", 3));
      // The same id again, in the other mode: a duplicate.
      send(producer, structured(), structuredSale("k1", "application/json", "eu", 2));
      send(producer, binary(null, "/shops/berlin", "12:00:03"), "{\"key\": \"eu\", \"value\": 50}");
      send(producer, structured(), structuredSale("k3", "application/xml", "eu", 60));
      send(producer, binary("k4", "/shops/berlin", "12:00:04"), null);
      // Attributes a post of one event would be refused for with a 400: a record cannot be, so it
      // goes to the dead letters, saying which attribute and why.
      RecordHeaders noonish = binary("k5", "/shops/berlin", "12:00:05");
      noonish.remove("ce_time");
      noonish.add("ce_time", bytes("noon"));
      send(producer, noonish, "{\"key\": \"eu\", \"value\": 70}");
      send(
          producer,
          structured(),
          structuredSale("k6", "application/json", "eu", 80).replace("\"1.0\"", "\"0.3\""));
      // A plain event among them, its source the partition.
      send(producer, new RecordHeaders(), event("us", "12:00:05", 10, "p1"));
    }
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(EventTopic.totals(outputs, "ce-kafka"))
                    .isEqualTo(Map.of("eu", 5.0, "us", 10.0)));
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(outputs.deadLetters("ce-kafka", 10).block())
                    .extracting(d -> d.get("path").asString() + " " + d.get("detail").asString())
                    .containsExactlyInAnyOrder(
                        "/id is required",
                        "/datacontenttype must declare JSON data (application/json, or a type"
                            + " ending in +json) for the pipeline to read its fields (got"
                            + " 'application/xml')",
                        "/data is required: the pipeline reads the event's fields in it",
                        "/time must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got"
                            + " 'noon')",
                        "/specversion must be \"1.0\", the version Eventide reads (got '0.3')"));
    JsonNode xml =
        outputs.deadLetters("ce-kafka", 10).block().stream()
            .filter(d -> d.get("path").asString().equals("/datacontenttype"))
            .findFirst()
            .orElseThrow();
    assertThat(xml.at("/event/id").asString()).isEqualTo("k3");
    assertThat(runtime("ce-kafka").watermark().join().sources())
        .extracting(WatermarkTracker.SourceView::source)
        .containsExactlyInAnyOrder("/shops/berlin", "/shops/paris", "kafka:" + TOPIC + ":0");
  }
}
