package io.eventide.cluster;

import static io.eventide.cluster.ClusterScenario.BASE;
import static io.eventide.cluster.ClusterScenario.END;
import static io.eventide.cluster.ClusterScenario.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A pipeline's {@code source.kafka} in cluster mode: the replicas read the source topic once
 * between them and log each poll to the pipeline's ingest log with where each event was read from.
 * A poll logged twice (its reader died after logging it and before committing its offsets) is
 * applied once: the owner of each ingest partition commits, with its state, the last offset of each
 * source partition it applied, and skips what is at or below it. The copies are written here by
 * hand into the log exactly as a second reader would write them, so that the case is certain rather
 * than left to where a kill falls.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterKafkaSourceTest {
  private static final int EVENTS = 600;

  @Test
  void sourceRecordsLoggedTwiceAreCountedOnce() throws Exception {
    try (ClusterReplicas replicas = new ClusterReplicas(2).startAll()) {
      String topic = replicas.namespace() + "sourced.in";
      Map<String, Object> kafka =
          Map.of(
              AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
              KafkaTestBroker.get().bootstrapServers(),
              // The topic is new: see KafkaIntegrationTest.producer for why one request at a time.
              ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
              1,
              ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
              ByteArraySerializer.class,
              ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
              ByteArraySerializer.class);
      try (Admin admin =
          Admin.create(Map.of("bootstrap.servers", KafkaTestBroker.get().bootstrapServers()))) {
        admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
      }
      List<JsonNode> events = new ArrayList<>();
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka)) {
        for (int i = 0; i < EVENTS; i++) {
          ObjectNode e =
              JsonNodeFactory.instance
                  .objectNode()
                  .put("key", "k" + i % KEYS)
                  .put("timestamp", BASE + (i * 5_000L) % 3_600_000L)
                  .put("value", i);
          events.add(e);
          producer.send(
              new ProducerRecord<>(
                  topic, i % 3, null, e.toString().getBytes(StandardCharsets.UTF_8)));
        }
      }
      ObjectNode definition = (ObjectNode) JsonMapper.shared().readTree(ClusterScenario.DEFINITION);
      definition.putObject("source").putObject("kafka").put("topic", topic);
      LiveApi api = replicas.api(1);
      api.define("sourced", definition.toString());

      String log = replicas.namespace() + "sourced.events";
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> IngestTopic.loggedEvents(log).size() >= EVENTS);
      // A second reader's copy of every source record in the lower half of each source partition.
      int copies = 0;
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka)) {
        for (ConsumerRecord<byte[], byte[]> r : IngestTopic.records(log)) {
          var origin = r.headers().lastHeader("eventide-origin-offset");
          if (origin != null
              && Long.parseLong(new String(origin.value(), StandardCharsets.UTF_8))
                  < EVENTS / 3 / 2) {
            producer.send(
                new ProducerRecord<>(
                    log, r.partition(), r.timestamp(), r.key(), r.value(), r.headers()));
            copies++;
          }
        }
      }
      assertThat(copies).isEqualTo(EVENTS / 2);
      assertThat(IngestTopic.loggedEvents(log)).hasSize(EVENTS + copies);

      api.watermark("sourced", "{\"watermark\": " + END + "}");
      Map<String, Double> expected = ClusterScenario.simulate(api, events);
      await()
          .atMost(Duration.ofMinutes(2))
          .untilAsserted(
              () -> assertThat(ClusterScenario.finalResults(api, "sourced")).isEqualTo(expected));
    }
  }
}
