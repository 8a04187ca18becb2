package io.eventide.kafka;

import io.eventide.core.IngestResult;
import io.eventide.runtime.Delivery;
import io.eventide.runtime.Streams;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchMessageListener;
import reactor.core.publisher.Mono;

/**
 * Feeds one poll of a stream's topic to every pipeline reading the stream, each as one batch, and
 * returns only once every one of them has applied it, so that the offsets are committed after that.
 * When any pipeline fails, or none reads the stream, the poll fails and the container offers it
 * again: the pipelines that had applied it then see it again, and their event ids make it count
 * once, as for a replay after a crash.
 */
class KafkaStreamSource implements BatchMessageListener<String, byte[]> {
  private final Streams streams;
  private final String stream;

  KafkaStreamSource(Streams streams, String stream) {
    this.streams = streams;
    this.stream = stream;
  }

  @Override
  public void onMessage(List<ConsumerRecord<String, byte[]>> records) {
    PolledEvents poll = PolledEvents.of(records);
    Map<String, Delivery<IngestResult>> outcomes =
        streams
            .readers(stream)
            .flatMap(
                readers ->
                    readers.isEmpty()
                        ? Mono.error(
                            new IllegalStateException(
                                "no pipeline reads stream '"
                                    + stream
                                    + "'; its records stay in Kafka until one does"))
                        : streams.deliver(
                            readers, runtime -> Mono.fromFuture(() -> poll.ingestInto(runtime))))
            .block();
    for (Map.Entry<String, Delivery<IngestResult>> outcome : outcomes.entrySet()) {
      if (outcome.getValue() instanceof Delivery.Failed<IngestResult> failed) {
        throw new IllegalStateException(
            "pipeline '" + outcome.getKey() + "' of stream '" + stream + "' failed the poll",
            failed.error());
      }
    }
  }
}
