package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.http.HttpStatus;

class KafkaBrokerOutageTest extends KafkaIntegrationTest {
  @Autowired KafkaHealthIndicator health;

  @Test
  void panesProducedWhileTheBrokerIsAwayArriveOnceInOrderWhenItIsBack() throws Exception {
    define(
        "outage",
        """
        {"window": {"type": "fixed", "size": "10m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "count"},
         "sinks": {"kafka": {}}}
        """);
    ingest("outage", event("a", "12:00:00", 1, null));
    assertThat(read("eventide.outage.panes", 1)).hasSize(1);
    assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

    KafkaTestBroker broker = KafkaTestBroker.get();
    broker.stop();
    try {
      // Ingestion goes on and returns at once: the panes wait in the outbox and the producer.
      for (int i = 1; i < 30; i++) {
        ingest("outage", event(i % 2 == 0 ? "a" : "b", "12:0" + (i % 10) + ":00", 1, null));
      }
      await().atMost(PATIENCE).until(() -> health.health(true).getStatus().equals(Status.DOWN));
      client
          .get()
          .uri("/pipelines/outage/results")
          .exchange()
          .expectStatus()
          .isEqualTo(HttpStatus.OK);
    } finally {
      broker.start();
    }

    List<ConsumerRecord<String, byte[]>> records = read("eventide.outage.panes", 30);
    assertThat(records).hasSize(30);
    assertSameOrderPerKey(records);
    // Count with accumulating panes: pane i of a window holds i + 1 elements, each exactly once.
    for (String key : List.of("a", "b")) {
      List<Integer> counts =
          records.stream()
              .filter(r -> r.key().startsWith(key + "@"))
              .map(r -> value(r).get("value").intValue())
              .toList();
      assertThat(counts).isEqualTo(IntStream.rangeClosed(1, 15).boxed().toList());
    }
    await().atMost(PATIENCE).until(() -> health.health(true).getStatus().equals(Status.UP));
  }
}
