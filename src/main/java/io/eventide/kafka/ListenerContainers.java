package io.eventide.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.GenericMessageListener;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.util.backoff.FixedBackOff;

/** Listener containers for event topics, all consuming alike: a poll is a batch, never skipped. */
final class ListenerContainers {
  private final Map<String, Object> consumerProperties;
  private final Duration retryBackoff;

  ListenerContainers(Map<String, Object> consumerProperties, Duration retryBackoff) {
    this.consumerProperties = consumerProperties;
    this.retryBackoff = retryBackoff;
  }

  /** Where a partition with no committed offset is read from: {@code auto.offset.reset}. */
  StartPosition startPosition() {
    return StartPosition.of(consumerProperties.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
  }

  /**
   * A started container reading {@code topic} in {@code group}, from its committed offsets.
   *
   * @param listener a batch listener: with {@link ContainerProperties.AckMode#BATCH} the container
   *     commits a poll's offsets once it returns, with {@link ContainerProperties.AckMode#MANUAL}
   *     the listener acknowledges them itself, or not
   */
  KafkaMessageListenerContainer<String, byte[]> start(
      String name,
      String topic,
      String group,
      GenericMessageListener<?> listener,
      ContainerProperties.AckMode ackMode) {
    Map<String, Object> props = new HashMap<>(consumerProperties);
    // Offsets are committed after each batch is applied, never in between.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    ContainerProperties container = new ContainerProperties(topic);
    container.setAckMode(ackMode);
    container.setMessageListener(listener);
    container.setClientId("eventide-" + name);
    KafkaMessageListenerContainer<String, byte[]> c =
        new KafkaMessageListenerContainer<>(new DefaultKafkaConsumerFactory<>(props), container);
    // A batch that cannot be applied is retried, never skipped: skipping would lose its events.
    c.setCommonErrorHandler(
        new DefaultErrorHandler(
            new FixedBackOff(retryBackoff.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS)));
    c.setBeanName("eventide-source-" + name);
    c.start();
    return c;
  }
}
