package io.eventide.kafka;

import io.eventide.pipeline.KafkaSourceDefinition;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.runtime.PipelineLifecycleListener;
import io.eventide.runtime.PipelineRuntimes;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.util.backoff.FixedBackOff;

/**
 * One listener container per pipeline with a Kafka source, started and stopped with the pipeline.
 * Partitions are assigned through the source's consumer group; where the source stands is kept per
 * pipeline ({@link SourcePositions}) until it is deleted.
 */
public class KafkaEventSources implements PipelineLifecycleListener, DisposableBean {
  private record Running(
      KafkaSourceDefinition source,
      KafkaEventSource listener,
      KafkaMessageListenerContainer<String, byte[]> container) {}

  private final Map<String, Object> consumerProperties;
  private final PipelineRuntimes runtimes;
  private final Duration retryBackoff;
  private final boolean durable;
  private final StartPosition start;
  private final Map<String, Running> running = new HashMap<>();
  private final Map<String, SourcePositions> positions = new HashMap<>();

  KafkaEventSources(
      Map<String, Object> consumerProperties, PipelineRuntimes runtimes, Duration retryBackoff) {
    this.consumerProperties = consumerProperties;
    this.runtimes = runtimes;
    this.retryBackoff = retryBackoff;
    // Offsets are committed to the group only when the state they stand for survives a restart.
    this.durable = runtimes.durable();
    this.start = StartPosition.of(consumerProperties.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
  }

  @Override
  public synchronized void defined(PipelineDefinition definition) {
    String name = definition.name();
    KafkaSourceDefinition source = definition.source().kafka();
    Running current = running.get(name);
    if (current != null && current.source().equals(source)) {
      current.listener().redefine(definition);
      return;
    }
    stop(name);
    if (source != null) {
      start(definition);
    }
  }

  @Override
  public synchronized void deleted(String name) {
    stop(name);
    positions.remove(name);
  }

  /**
   * Starts consuming for the pipeline: from where this process stands, else from its group's
   * committed offsets with a durable store, else from the start position.
   */
  public synchronized void start(PipelineDefinition definition) {
    KafkaSourceDefinition source = definition.source().kafka();
    Map<String, Object> props = new HashMap<>(consumerProperties);
    // Offsets are committed by the listener after each batch is applied, never in between.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.GROUP_ID_CONFIG, source.group());
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    KafkaEventSource listener =
        new KafkaEventSource(
            runtimes,
            definition,
            positions.computeIfAbsent(definition.name(), n -> new SourcePositions(durable)),
            durable,
            start);
    ContainerProperties container = new ContainerProperties(source.topic());
    container.setAckMode(ContainerProperties.AckMode.MANUAL);
    container.setMessageListener(listener);
    container.setClientId("eventide-" + definition.name());
    KafkaMessageListenerContainer<String, byte[]> c =
        new KafkaMessageListenerContainer<>(new DefaultKafkaConsumerFactory<>(props), container);
    // A batch that cannot be applied is retried, never skipped: skipping would lose its events.
    c.setCommonErrorHandler(
        new DefaultErrorHandler(
            new FixedBackOff(retryBackoff.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS)));
    c.setBeanName("eventide-source-" + definition.name());
    c.start();
    running.put(definition.name(), new Running(source, listener, c));
  }

  /** Stops consuming for the pipeline; it goes on from where it stood when started again. */
  public synchronized void stop(String name) {
    Running r = running.remove(name);
    if (r != null) {
      r.container().stop();
    }
  }

  @Override
  public synchronized void destroy() {
    running.keySet().stream().toList().forEach(this::stop);
  }
}
