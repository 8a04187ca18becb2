package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.kafka.KafkaSourceDefinition;
import io.eventide.runtime.PipelineLifecycleListener;
import io.eventide.runtime.RunningPipelines;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;

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

  private final ListenerContainers containers;
  private final RunningPipelines runtimes;
  private final boolean durable;
  private final StartPosition start;
  private final Map<String, Running> running = new HashMap<>();
  private final Map<String, SourcePositions> positions = new HashMap<>();

  KafkaEventSources(ListenerContainers containers, RunningPipelines runtimes) {
    this.containers = containers;
    this.runtimes = runtimes;
    // Offsets are committed to the group only when the state they stand for survives a restart.
    this.durable = runtimes.durable();
    this.start = containers.startPosition();
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
    KafkaEventSource listener =
        new KafkaEventSource(
            runtimes,
            definition,
            positions.computeIfAbsent(definition.name(), n -> new SourcePositions(durable)),
            durable,
            start);
    running.put(
        definition.name(),
        new Running(
            source,
            listener,
            containers.start(
                definition.name(),
                source.topic(),
                source.group(),
                listener,
                ContainerProperties.AckMode.MANUAL)));
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
