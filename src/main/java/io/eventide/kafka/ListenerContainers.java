package io.eventide.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.BatchMessageListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
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

  /** A started container reading {@code topic} in {@code group}, from its committed offsets. */
  KafkaMessageListenerContainer<String, byte[]> start(
      String name, String topic, String group, BatchMessageListener<String, byte[]> listener) {
    Map<String, Object> props = new HashMap<>(consumerProperties);
    // Offsets are committed by the container after each batch is applied, never in between.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    ContainerProperties container = new ContainerProperties(topic);
    container.setAckMode(ContainerProperties.AckMode.BATCH);
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
