package io.eventide.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a topic of {@link KafkaTestBroker} as a consumer of the panes would, from its start. */
public final class TopicReader {
  private TopicReader() {}

  /**
   * Reads the topic from the beginning, every partition, until {@code count} records have arrived
   * (or {@code patience} runs out), and then for as long as more keep coming within {@code quiet},
   * so that a duplicate beyond the expected count would show.
   */
  public static List<ConsumerRecord<String, byte[]>> read(
      String topic, int count, Duration patience, Duration quiet) {
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    long until = System.nanoTime() + patience.toNanos();
    try (KafkaConsumer<String, byte[]> consumer = fromStart(topic, until)) {
      while (out.size() < count && System.nanoTime() < until) {
        consumer.poll(Duration.ofMillis(100)).forEach(out::add);
      }
      long lastArrival = System.nanoTime();
      while (System.nanoTime() - lastArrival < quiet.toNanos()) {
        int before = out.size();
        consumer.poll(Duration.ofMillis(100)).forEach(out::add);
        if (out.size() > before) {
          lastArrival = System.nanoTime();
        }
      }
    }
    return out;
  }

  /**
   * A consumer of every partition of {@code topic} from its start, once the topic exists (or {@code
   * until}, a System.nanoTime, has passed).
   */
  static KafkaConsumer<String, byte[]> fromStart(String topic, long until) {
    KafkaConsumer<String, byte[]> consumer = consumer();
    List<TopicPartition> partitions = new ArrayList<>();
    while (partitions.isEmpty() && System.nanoTime() < until) {
      List<PartitionInfo> info = consumer.listTopics().get(topic);
      if (info != null) {
        info.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      }
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return consumer;
  }

  private static KafkaConsumer<String, byte[]> consumer() {
    return new KafkaConsumer<>(
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            KafkaTestBroker.get().bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG,
            "test-" + UUID.randomUUID(),
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            StringDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class));
  }
}
