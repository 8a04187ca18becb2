package io.eventide.kafka;

import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.ClusterProperties;
import io.eventide.runtime.DaemonThreads;
import io.eventide.runtime.IngestLog;
import io.eventide.runtime.IngestLogException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The ingest log on Kafka (cluster mode): a topic per pipeline, {@code
 * <namespace><pipeline>.events}, created with {@code eventide.cluster.partitions} partitions on
 * first use, written by an idempotent producer that waits for every in-sync replica: an append
 * completes once every one of its records is durable, in order per partition, never twice.
 *
 * <p>Records are handed to the producer by one thread of its own, in the order appends arrive: a
 * send can block (the first to a topic waits for its metadata, a full buffer waits for room), which
 * must not happen on a thread that serves requests.
 */
final class KafkaIngestLog implements IngestLog, AutoCloseable {
  private final Admin admin;
  private final KafkaNamespace names;
  private final ClusterProperties cluster;
  private final Producer<byte[], byte[]> producer;
  private final Map<String, CompletableFuture<Integer>> partitions = new ConcurrentHashMap<>();
  private final ExecutorService sender =
      Executors.newSingleThreadExecutor(DaemonThreads.named("eventide-ingest-log"));

  KafkaIngestLog(
      Admin admin,
      KafkaNamespace names,
      ClusterProperties cluster,
      Producer<byte[], byte[]> producer) {
    this.admin = admin;
    this.names = names;
    this.cluster = cluster;
    this.producer = producer;
  }

  /**
   * Producer settings for the log, whatever {@code spring.kafka.producer.*} says: every record on
   * every in-sync replica, retried without duplicates, and an append answered within the append
   * timeout.
   */
  static Map<String, Object> producerProperties(
      Map<String, Object> boot, ClusterProperties cluster) {
    Map<String, Object> props = new HashMap<>(boot);
    int timeout = (int) Math.min(Integer.MAX_VALUE, cluster.appendTimeout().toMillis());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, timeout / 2));
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return props;
  }

  @Override
  public CompletableFuture<Integer> partitions(String pipeline) {
    CompletableFuture<Integer> known = partitions.computeIfAbsent(pipeline, this::topic);
    if (known.isCompletedExceptionally()) {
      // Asked again next time: the cluster may answer then.
      partitions.remove(pipeline, known);
    }
    return known;
  }

  /** Creates the pipeline's topic unless it exists; its partition count either way. */
  private CompletableFuture<Integer> topic(String pipeline) {
    String topic = names.eventTopic(pipeline);
    NewTopic wanted =
        new NewTopic(
            topic,
            Optional.of(cluster.partitions()),
            cluster.replicationFactor() < 0
                ? Optional.empty()
                : Optional.of((short) cluster.replicationFactor()));
    CreateTopicsResult created = admin.createTopics(List.of(wanted));
    return created
        .numPartitions(topic)
        .toCompletionStage()
        .toCompletableFuture()
        .exceptionallyCompose(
            e ->
                cause(e) instanceof TopicExistsException
                    ? existing(topic)
                    : CompletableFuture.failedFuture(IngestLogException.notLogged(cause(e))));
  }

  /** The partition count of a topic that exists (created by another replica, or earlier). */
  private CompletableFuture<Integer> existing(String topic) {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .toCompletionStage()
        .toCompletableFuture()
        .thenApply(described -> described.get(topic).partitions().size())
        .exceptionallyCompose(
            e -> CompletableFuture.failedFuture(IngestLogException.notLogged(cause(e))));
  }

  /**
   * Completes once every record is acknowledged. When some are not, the append fails: with "nothing
   * logged" when every record failed in a way that proves it never reached the log, else with its
   * outcome unknown (records of one request may span partitions, each acknowledged on its own, and
   * a record that timed out may be on the broker all the same: its acknowledgement is what was
   * lost). Resending after "nothing logged" must never count an event twice.
   */
  @Override
  public CompletableFuture<Map<Integer, Long>> append(String pipeline, List<Entry> entries) {
    CompletableFuture<Map<Integer, Long>> done = new CompletableFuture<>();
    if (entries.isEmpty()) {
      done.complete(Map.of());
      return done;
    }
    Map<Integer, Long> last = new ConcurrentHashMap<>();
    String topic = names.eventTopic(pipeline);
    AtomicInteger pending = new AtomicInteger(entries.size());
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger mayBeLogged = new AtomicInteger();
    Runnable send =
        () -> {
          for (Entry e : entries) {
            try {
              producer.send(
                  IngestRecords.of(topic, e),
                  (metadata, error) -> {
                    if (error == null) {
                      last.merge(metadata.partition(), metadata.offset(), Math::max);
                    } else if (!neverLogged(error)) {
                      mayBeLogged.incrementAndGet();
                    }
                    settle(error, pending, failed, mayBeLogged, entries.size(), last, done);
                  });
            } catch (RuntimeException error) {
              // Refused before it was handed to the network.
              settle(error, pending, failed, mayBeLogged, entries.size(), last, done);
            }
          }
        };
    try {
      sender.execute(send);
    } catch (RuntimeException e) {
      done.completeExceptionally(IngestLogException.notLogged(e));
    }
    return done;
  }

  /**
   * Whether a failed record surely never reached the log: the broker or the producer refused it for
   * what it is or where it goes. A timeout or a lost connection proves nothing.
   */
  static boolean neverLogged(Throwable error) {
    return error instanceof RecordTooLargeException
        || error instanceof RecordBatchTooLargeException
        || error instanceof InvalidTopicException
        || error instanceof AuthorizationException
        || error instanceof SerializationException
        || error instanceof InvalidRecordException;
  }

  private static void settle(
      Throwable error,
      AtomicInteger pending,
      AtomicInteger failed,
      AtomicInteger mayBeLogged,
      int total,
      Map<Integer, Long> last,
      CompletableFuture<Map<Integer, Long>> done) {
    if (error != null) {
      failed.incrementAndGet();
    }
    if (pending.decrementAndGet() > 0) {
      return;
    }
    int lost = failed.get();
    if (lost == 0) {
      done.complete(last);
    } else {
      Throwable cause =
          error != null ? error : new IllegalStateException(lost + " records were not logged");
      done.completeExceptionally(
          lost == total && mayBeLogged.get() == 0
              ? IngestLogException.notLogged(cause)
              : IngestLogException.unresolved(cause));
    }
  }

  @Override
  public void close() throws InterruptedException {
    sender.shutdown();
    sender.awaitTermination(cluster.appendTimeout().toMillis(), TimeUnit.MILLISECONDS);
    producer.close(cluster.appendTimeout());
  }

  private static Throwable cause(Throwable e) {
    return e instanceof CompletionException c && c.getCause() != null ? c.getCause() : e;
  }
}
