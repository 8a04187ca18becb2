package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.runtime.PipelineInput;
import io.eventide.runtime.RunningPipelines;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.BatchAcknowledgingMessageListener;
import org.springframework.kafka.listener.ConsumerSeekAware;
import org.springframework.kafka.support.Acknowledgment;
import reactor.core.publisher.Mono;

/**
 * Feeds one poll of a pipeline's event topic to its runtime as one batch (one commit: its effect
 * and its dead letters together), and returns only once the batch is applied.
 *
 * <p>With a durable store the offsets are then committed to the group (manual acknowledgement), so
 * a crash before that replays the batch and event ids make the replay count once. With a store that
 * is not durable nothing is committed, since nothing of the state survives a restart: the source
 * reads from its {@link StartPosition} whenever the state it fed is gone. In both, a poll delivered
 * again after it was applied in this process is skipped ({@link SourcePositions}).
 */
class KafkaEventSource
    implements BatchAcknowledgingMessageListener<String, byte[]>, ConsumerSeekAware {
  private final RunningPipelines runtimes;
  private final SourcePositions positions;
  private final boolean durable;
  private final StartPosition start;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private volatile ConsumerSeekCallback seeks;
  private volatile PipelineDefinition definition;

  KafkaEventSource(
      RunningPipelines runtimes,
      PipelineDefinition definition,
      SourcePositions positions,
      boolean durable,
      StartPosition start) {
    this.runtimes = runtimes;
    this.definition = definition;
    this.positions = positions;
    this.durable = durable;
    this.start = start;
  }

  void redefine(PipelineDefinition next) {
    definition = next;
  }

  @Override
  public void registerSeekCallback(ConsumerSeekCallback callback) {
    seeks = callback;
  }

  /**
   * Goes on from where this process stands in a partition. With a durable store, from the group's
   * committed offset when that is further (another process applied more, into the same state), else
   * from the start position when this process has no position.
   */
  @Override
  public void onPartitionsAssigned(
      Map<TopicPartition, Long> partitions, ConsumerSeekCallback callback) {
    assigned.addAll(partitions.keySet());
    List<TopicPartition> fresh = new ArrayList<>();
    for (Map.Entry<TopicPartition, Long> p : partitions.entrySet()) {
      Long next = positions.next(p.getKey());
      Long committed = p.getValue();
      if (next == null) {
        fresh.add(p.getKey());
      } else if (!durable || committed == null || next > committed) {
        callback.seek(p.getKey().topic(), p.getKey().partition(), next);
      }
    }
    if (!durable) {
      start.seek(callback, fresh);
    }
  }

  @Override
  public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    assigned.removeAll(partitions);
  }

  @Override
  public void onMessage(List<ConsumerRecord<String, byte[]>> records, Acknowledgment ack) {
    List<ConsumerRecord<String, byte[]>> unseen = new ArrayList<>(records.size());
    for (ConsumerRecord<String, byte[]> r : records) {
      if (!positions.applied(r)) {
        unseen.add(r);
      }
    }
    PipelineInput applied =
        runtimes
            .using(
                definition.name(),
                () -> Mono.just(definition),
                runtime ->
                    positions.lostWith(runtime)
                        ? Mono.<PipelineInput>empty()
                        : Mono.fromFuture(() -> ingest(runtime, unseen)).thenReturn(runtime))
            .block();
    if (applied == null) {
      // The state this source fed is gone: read the topic again from the start, this poll too.
      start.seek(seeks, List.copyOf(assigned));
      return;
    }
    positions.applied(applied, unseen);
    if (durable) {
      ack.acknowledge();
    }
  }

  private CompletableFuture<?> ingest(
      PipelineInput runtime, List<ConsumerRecord<String, byte[]>> records) {
    return PolledEvents.of(records).ingestInto(runtime);
  }
}
