package io.eventide.bench;

import io.eventide.EventideApplication;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Panes per second a pipeline's Kafka sink delivers, in the W1 shape: one watermark step fires one
 * on-time pane for each of {@code panes} keys in one commit, and the clock runs from that post
 * until a consumer has read every pane from the topic. The service runs in this JVM on the memory
 * store (or {@code store=redis} at {@code redis=redis://127.0.0.1:6379}) against
 * spring-kafka-test's in-process broker, so that nothing else is needed.
 *
 * <p>Usage: {@code KafkaSinkRate panes=10000 runs=3 [store=redis redis=redis://127.0.0.1:6379]}.
 */
public final class KafkaSinkRate {
  private KafkaSinkRate() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = BenchTable.parse(args);
    int panes = Integer.parseInt(a.getOrDefault("panes", "10000"));
    int runs = Integer.parseInt(a.getOrDefault("runs", "3"));
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    List<String> settings =
        new ArrayList<>(
            List.of(
                "--server.port=0",
                "--eventide.kafka.enabled=true",
                "--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
                "--logging.level.root=warn"));
    if ("redis".equals(a.get("store"))) {
      settings.add("--eventide.state.store=redis");
      settings.add("--spring.data.redis.url=" + a.getOrDefault("redis", "redis://127.0.0.1:6379"));
      settings.add("--eventide.state.key-prefix=bench-" + UUID.randomUUID());
    }
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(EventideApplication.class)
            .run(settings.toArray(String[]::new))) {
      String url = "http://localhost:" + app.getEnvironment().getProperty("local.server.port");
      ServiceClient service = new ServiceClient(ServiceClient.http(), url);
      System.out.println("| run | panes | seconds | panes/s |");
      System.out.println("| --- | --- | --- | --- |");
      for (int run = 0; run < runs; run++) {
        String pipeline = "bench-sink-" + run;
        service.put(
            pipeline,
            "{\"window\":{\"type\":\"fixed\",\"size\":\"1m\"},\"aggregate\":{\"type\":\"sum\"},"
                + "\"sinks\":{\"kafka\":{\"mode\":\"append\"}}}");
        for (int from = 0; from < panes; from += 5000) {
          List<String> events = new ArrayList<>();
          for (int k = from; k < Math.min(panes, from + 5000); k++) {
            events.add(
                "{\"key\":\"k" + k + "\",\"timestamp\":\"2026-01-01T10:00:30Z\",\"value\":1}");
          }
          service.post(pipeline + "/events", "[" + String.join(",", events) + "]");
        }
        long started = System.nanoTime();
        service.post(pipeline + "/watermark", "{\"watermark\":\"2026-01-01T10:01:00Z\"}");
        read(broker.getBrokersAsString(), "eventide." + pipeline + ".panes", panes);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("| %d | %d | %.2f | %,.0f |%n", run, panes, seconds, panes / seconds);
      }
    } finally {
      broker.destroy();
    }
  }

  /** Reads the topic from its start (the group is new) until {@code count} records have arrived. */
  private static void read(String bootstrap, String topic, int count) {
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG,
                "bench-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
      consumer.subscribe(List.of(topic));
      long until = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      long got = 0;
      while (got < count) {
        if (System.nanoTime() > until) {
          throw new IllegalStateException("only " + got + " of " + count + " panes arrived");
        }
        got += consumer.poll(Duration.ofMillis(100)).count();
      }
    }
  }
}
