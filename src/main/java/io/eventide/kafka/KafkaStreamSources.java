package io.eventide.kafka;

import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.Streams;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;

/**
 * One listener container per stream the operator feeds from Kafka ({@code eventide.kafka.streams}),
 * running from start-up to shutdown. A stream's source is configuration rather than a definition
 * some pipeline's admin makes, since it feeds every pipeline that reads the stream.
 */
class KafkaStreamSources implements DisposableBean {
  private final ListenerContainers containers;
  private final Streams streams;
  private final List<Resolved> sources;
  private final List<KafkaMessageListenerContainer<String, byte[]>> running = new ArrayList<>();

  /** A stream's source with the default names filled in. */
  record Resolved(String stream, String topic, String group) {}

  /**
   * @param durable whether the state store keeps state across a restart; stream sources commit
   *     their offsets to the group and need one that does
   * @throws IllegalStateException for stream sources over a store that does not: committed offsets
   *     would tell the next process that events were counted whose effect died with this one
   */
  KafkaStreamSources(
      ListenerContainers containers,
      Streams streams,
      KafkaNamespace namespace,
      List<KafkaSettings.StreamSource> configured,
      boolean durable) {
    if (!configured.isEmpty() && !durable) {
      throw new IllegalStateException(
          "eventide.kafka.streams needs eventide.state.store=redis: a stream's source commits its"
              + " offsets to the group, and with the memory store the counts they stand for are"
              + " lost on a restart");
    }
    this.containers = containers;
    this.streams = streams;
    this.sources = resolve(namespace, configured);
  }

  /**
   * Fills in the default names and refuses, at start-up, what would let one stream's source reach
   * into another's or a pipeline's names: under the namespace, a stream names only its own.
   *
   * @throws IllegalArgumentException listing every problem
   */
  static List<Resolved> resolve(
      KafkaNamespace namespace, List<KafkaSettings.StreamSource> configured) {
    List<String> problems = new ArrayList<>();
    List<Resolved> resolved = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < configured.size(); i++) {
      KafkaSettings.StreamSource s = configured.get(i);
      String at = "eventide.kafka.streams[" + i + "]";
      if (!seen.add(s.stream())) {
        problems.add(at + ".stream: stream '" + s.stream() + "' has a source already");
      }
      String topic = s.topic() == null ? namespace.streamTopic(s.stream()) : s.topic();
      String group = s.group() == null ? namespace.streamGroup(s.stream()) : s.group();
      checkOwned(namespace, s.stream(), at + ".topic", topic, problems);
      checkOwned(namespace, s.stream(), at + ".group", group, problems);
      resolved.add(new Resolved(s.stream(), topic, group));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return List.copyOf(resolved);
  }

  private static void checkOwned(
      KafkaNamespace namespace, String stream, String at, String name, List<String> problems) {
    if (name.startsWith(namespace.prefix()) && !namespace.ownsForStream(stream, name)) {
      problems.add(
          at
              + ": under "
              + namespace.prefix()
              + " it must be in the stream's namespace, "
              + namespace.ofStream(stream)
              + "<part> with no dot in <part> (got '"
              + name
              + "')");
    }
  }

  synchronized void start() {
    for (Resolved s : sources) {
      running.add(
          containers.start(
              "stream-" + s.stream(),
              s.topic(),
              s.group(),
              new KafkaStreamSource(streams, s.stream()),
              ContainerProperties.AckMode.BATCH));
    }
  }

  @Override
  public synchronized void destroy() {
    running.forEach(KafkaMessageListenerContainer::stop);
    running.clear();
  }
}
