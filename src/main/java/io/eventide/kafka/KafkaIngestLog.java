package io.eventide.kafka;

import io.eventide.config.ClusterProperties;
import io.eventide.pipeline.KafkaNamespace;
import io.eventide.runtime.DaemonThreads;
import io.eventide.runtime.IngestLog;
import io.eventide.runtime.IngestLogException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest log on Kafka (cluster mode): a topic per pipeline, {@code
 * <namespace><pipeline>.events}, created with {@code eventide.cluster.partitions} partitions on
 * first use.
 *
 * <p>Each append is logged whole or not at all: appends are written in Kafka transactions by one
 * sender thread, which takes every append waiting when it starts a transaction (a group commit), so
 * that a transaction's cost is shared by the requests that arrive meanwhile. Owners read with
 * {@code read_committed}, so they never see an aborted append. A transaction whose commit is not
 * confirmed in time leaves its appends' outcome unknown, and they are answered so.
 */
final class KafkaIngestLog implements IngestLog, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KafkaIngestLog.class);

  /** The most appends one transaction takes. */
  private static final int GROUP = 256;

  private final Admin admin;
  private final KafkaNamespace names;
  private final ClusterProperties cluster;
  private final Supplier<Producer<byte[], byte[]>> producers;
  private final Map<String, CompletableFuture<Integer>> partitions = new ConcurrentHashMap<>();
  private final BlockingQueue<Append> queue = new LinkedBlockingQueue<>();
  private final Thread sender;
  private volatile boolean closed;

  /** Owned by the sender thread; null until first needed and after a fatal error. */
  private Producer<byte[], byte[]> producer;

  private record Append(String topic, List<Entry> entries, CompletableFuture<Void> done) {}

  KafkaIngestLog(
      Admin admin,
      KafkaNamespace names,
      ClusterProperties cluster,
      Supplier<Producer<byte[], byte[]>> producers) {
    this.admin = admin;
    this.names = names;
    this.cluster = cluster;
    this.producers = producers;
    this.sender = DaemonThreads.named("eventide-ingest-log").newThread(this::send);
    sender.start();
  }

  /**
   * Producer settings for the log: transactional (one id per process: a restarted process fences
   * none of another's transactions, and its own unfinished ones time out and abort), every record
   * on every in-sync replica, and a request answered within the append timeout.
   */
  static Map<String, Object> producerProperties(
      Map<String, Object> boot, ClusterProperties cluster) {
    Map<String, Object> props = new HashMap<>(boot);
    int timeout = (int) Math.min(Integer.MAX_VALUE, cluster.appendTimeout().toMillis());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, cluster.group() + ".log." + UUID.randomUUID());
    props.put(
        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
        (int) Math.min(Integer.MAX_VALUE, cluster.transactionTimeout().toMillis()));
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    // A transaction's first records meet CONCURRENT_TRANSACTIONS while the brokers still complete
    // the one before: retried at once, not after the default 100 ms, or every group commit would
    // wait that long.
    props.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 2);
    props.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1, timeout / 2));
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return props;
  }

  static Supplier<Producer<byte[], byte[]>> producers(
      Map<String, Object> boot, ClusterProperties cluster) {
    // A new transactional id each time: a producer that failed for good is replaced, not revived.
    return () -> new KafkaProducer<>(producerProperties(boot, cluster));
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

  /** Creates the pipeline's topic unless it exists, and reads how many partitions it has. */
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

  @Override
  public CompletableFuture<Void> append(String pipeline, List<Entry> entries) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (closed) {
      done.completeExceptionally(
          IngestLogException.notLogged(new IllegalStateException("the service is stopping")));
    } else {
      queue.add(new Append(names.eventTopic(pipeline), entries, done));
    }
    return done;
  }

  /** The sender thread: one transaction after another, each taking every append waiting. */
  private void send() {
    List<Append> group = new ArrayList<>(GROUP);
    while (!closed) {
      try {
        Append first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        group.add(first);
        queue.drainTo(group, GROUP - 1);
        commit(group);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } finally {
        group.clear();
      }
    }
    List<Append> left = new ArrayList<>();
    queue.drainTo(left);
    left.forEach(
        a ->
            a.done()
                .completeExceptionally(
                    IngestLogException.notLogged(
                        new IllegalStateException("the service is stopping"))));
  }

  private void commit(List<Append> group) {
    boolean begun = false;
    try {
      if (producer == null) {
        producer = producers.get();
        producer.initTransactions();
      }
      producer.beginTransaction();
      begun = true;
      for (Append a : group) {
        for (Entry e : a.entries()) {
          producer.send(IngestRecords.of(a.topic(), e));
        }
      }
    } catch (RuntimeException e) {
      // Nothing was committed: abort what was begun (or drop a producer that cannot go on).
      abortOrReplace(begun, e);
      group.forEach(a -> a.done().completeExceptionally(IngestLogException.notLogged(e)));
      return;
    }
    try {
      producer.commitTransaction();
      group.forEach(a -> a.done().complete(null));
    } catch (TimeoutException e) {
      // The commit may yet land; a new producer (new id) never finishes this transaction, which
      // the brokers complete or abort by themselves.
      replace(e);
      group.forEach(a -> a.done().completeExceptionally(IngestLogException.unresolved(e)));
    } catch (RuntimeException e) {
      abortOrReplace(true, e);
      group.forEach(a -> a.done().completeExceptionally(IngestLogException.notLogged(e)));
    }
  }

  private void abortOrReplace(boolean begun, RuntimeException cause) {
    if (begun && producer != null) {
      try {
        producer.abortTransaction();
        log.warn("an append to the ingest log was aborted: {}", cause.toString());
        return;
      } catch (RuntimeException e) {
        // The producer cannot abort (fenced, or failed for good): replace it.
      }
    }
    replace(cause);
  }

  private void replace(RuntimeException cause) {
    log.warn("the ingest log's producer is replaced after: {}", cause.toString());
    if (producer != null) {
      try {
        producer.close(Duration.ZERO);
      } catch (RuntimeException e) {
        log.debug("closing a failed producer", e);
      }
    }
    producer = null;
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    sender.join(cluster.appendTimeout().toMillis() + 1000);
    if (producer != null) {
      producer.close(cluster.appendTimeout());
    }
  }

  private static Throwable cause(Throwable e) {
    return e instanceof CompletionException c && c.getCause() != null ? c.getCause() : e;
  }
}
