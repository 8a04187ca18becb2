package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.ClusterProperties;
import io.eventide.runtime.DaemonThreads;
import io.eventide.runtime.LogRecord;
import io.eventide.runtime.OwnedPartitions;
import io.eventide.runtime.PipelineGoneException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Takes this replica's share of the pipelines' ingest logs (cluster mode): one consumer in the
 * deployment's group, subscribed to every defined pipeline's ingest topic, so that Kafka's group
 * protocol hands each partition to one replica and moves it when a replica joins, leaves or dies.
 *
 * <p>On assignment a partition is opened in {@link OwnedPartitions} (which fences its earlier
 * owner) and read from the offset committed with its state; on revocation what was handed over is
 * committed first. One poll's records of a partition are applied as one run and committed with the
 * offset after them, in Redis, atomically with the state they changed; the offsets committed to the
 * group afterwards serve only to monitor lag.
 */
final class ClusterConsumer implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(ClusterConsumer.class);

  private final Supplier<Consumer<byte[], byte[]>> consumers;
  private final OwnedPartitions partitions;
  private final PipelineRegistry registry;
  private final KafkaNamespace names;
  private final ClusterProperties cluster;
  private static final long INITIAL_BACKOFF_MS = 1_000;
  private static final long MAX_BACKOFF_MS = 30_000;

  private final AtomicLong rebalances = new AtomicLong();
  private final AtomicLong restarts = new AtomicLong();

  /** Partitions assigned whose state could not be opened yet: paused, opened again each loop. */
  private final Set<TopicPartition> unopened = new HashSet<>();

  /** The topics subscribed to, by pipeline, and the pipeline of each. */
  private Map<String, String> topics = Map.of();

  private Map<String, String> pipelines = Map.of();

  private volatile boolean running;
  private volatile boolean joined;
  private volatile Thread thread;
  private Consumer<byte[], byte[]> consumer;

  ClusterConsumer(
      Supplier<Consumer<byte[], byte[]>> consumers,
      OwnedPartitions partitions,
      PipelineRegistry registry,
      KafkaNamespace names,
      ClusterProperties cluster) {
    this.consumers = consumers;
    this.partitions = partitions;
    this.registry = registry;
    this.names = names;
    this.cluster = cluster;
  }

  /**
   * Whether this replica has joined the group (its first assignment arrived, even an empty one).
   */
  boolean joined() {
    return joined;
  }

  long rebalances() {
    return rebalances.get();
  }

  /** How often a failed session was replaced by a new one. */
  long restarts() {
    return restarts.get();
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    running = true;
    thread = DaemonThreads.named("eventide-partitions-consumer").newThread(this::run);
    thread.start();
  }

  @Override
  public void stop() {
    Thread t;
    synchronized (this) {
      if (!running) {
        return;
      }
      running = false;
      t = thread;
    }
    Consumer<byte[], byte[]> c = consumer;
    if (c != null) {
      c.wakeup();
    }
    try {
      t.join(cluster.sessionTimeout().toMillis() + 5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    // Stopped after the web server's graceful shutdown, before the runtimes and the store.
    return 2000;
  }

  /**
   * Runs consumer sessions until stopped. A session that fails (Redis away while it reads, a Kafka
   * call that timed out) leaves the group, handing its partitions to other replicas, and a new one
   * joins after a back-off: the thread never dies while the replica runs, or this replica would
   * look alive while applying nothing.
   */
  private void run() {
    long backoff = INITIAL_BACKOFF_MS;
    while (running) {
      try {
        session();
        return;
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        restarts.incrementAndGet();
        log.error(
            "the partitions' consumer failed; it left the group and joins again in {} ms",
            backoff,
            e);
      }
      try {
        Thread.sleep(backoff);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** One membership of the group, from joining to leaving; fails on what it cannot handle. */
  private void session() {
    consumer = consumers.get();
    topics = Map.of();
    pipelines = Map.of();
    unopened.clear();
    try {
      long refreshed = 0;
      // Until the registry has answered, a session without topics does not know that there is
      // nothing to own: it is not in the group, and readiness must not say it is.
      boolean registryRead = false;
      while (running) {
        long now = System.currentTimeMillis();
        if (now - refreshed >= cluster.subscriptionRefresh().toMillis()) {
          registryRead |= refresh();
          refreshed = now;
        }
        if (topics.isEmpty()) {
          Thread.sleep(cluster.pollTimeout().toMillis());
          joined = registryRead;
          continue;
        }
        openUnopened();
        ConsumerRecords<byte[], byte[]> records = consumer.poll(cluster.pollTimeout());
        apply(records);
      }
    } catch (WakeupException e) {
      // stop() woke the poll.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      try {
        // Leaving the group revokes every partition: what was applied is committed first.
        consumer.close(Duration.ofMillis(cluster.sessionTimeout().toMillis()));
      } catch (RuntimeException e) {
        log.warn("closing the partitions' consumer: {}", e.toString());
      }
      for (OwnedPartitions.Id id : partitions.ids()) {
        partitions.close(id).join();
      }
      joined = false;
    }
  }

  /**
   * Subscribes to the ingest topic of every defined pipeline; hands redefinitions on. False when
   * the registry did not answer.
   */
  private boolean refresh() {
    List<PipelineDefinition> defined;
    try {
      defined = registry.list().collectList().toFuture().join();
    } catch (RuntimeException e) {
      log.debug("the registry did not answer: {}", e.toString());
      return false;
    }
    Map<String, String> wanted = new HashMap<>();
    for (PipelineDefinition d : defined) {
      wanted.put(d.name(), names.eventTopic(d.name()));
      partitions.redefine(d);
    }
    if (!wanted.equals(topics)) {
      topics = wanted;
      Map<String, String> byTopic = new HashMap<>();
      wanted.forEach((pipeline, topic) -> byTopic.put(topic, pipeline));
      pipelines = byTopic;
      if (wanted.isEmpty()) {
        consumer.unsubscribe();
      } else {
        consumer.subscribe(wanted.values(), new Rebalance());
      }
    }
    return true;
  }

  private void apply(ConsumerRecords<byte[], byte[]> records) {
    Map<TopicPartition, CompletableFuture<Boolean>> runs = new HashMap<>();
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (TopicPartition tp : records.partitions()) {
      OwnedPartitions.Id id = id(tp);
      if (id == null || unopened.contains(tp)) {
        continue;
      }
      if (!partitions.healthy(id)) {
        // Its runtime failed (a commit refused: fenced, or the store away): read it again from
        // its last commit.
        reopen(tp);
        continue;
      }
      List<ConsumerRecord<byte[], byte[]>> polled = records.records(tp);
      List<LogRecord> logged = new ArrayList<>(polled.size());
      long[] offsets = new long[polled.size()];
      for (ConsumerRecord<byte[], byte[]> r : polled) {
        LogRecord read = IngestRecords.read(r);
        if (read != null) {
          offsets[logged.size()] = r.offset();
          logged.add(read);
        }
      }
      if (logged.isEmpty()) {
        continue;
      }
      long[] kept = Arrays.copyOf(offsets, logged.size());
      runs.put(tp, partitions.apply(id, logged, kept));
      ends.put(tp, polled.get(polled.size() - 1).offset() + 1);
    }
    Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
    runs.forEach(
        (tp, run) -> {
          try {
            if (run.join()) {
              done.put(tp, new OffsetAndMetadata(ends.get(tp)));
            } else {
              reopen(tp);
            }
          } catch (CompletionException e) {
            log.warn("partition {} failed to commit, it is read again: {}", tp, e.getCause());
            reopen(tp);
          }
        });
    if (!done.isEmpty()) {
      // For lag metrics only: where a partition resumes is what its state's commit says.
      consumer.commitAsync(done, null);
    }
  }

  /** Opens a partition again and reads it from its last commit; paused until that works. */
  private void reopen(TopicPartition tp) {
    unopened.add(tp);
    consumer.pause(List.of(tp));
    openUnopened();
  }

  private void openUnopened() {
    for (TopicPartition tp : List.copyOf(unopened)) {
      if (!consumer.assignment().contains(tp)) {
        unopened.remove(tp);
        continue;
      }
      OwnedPartitions.Id id = id(tp);
      try {
        long offset = partitions.open(id, consumer.partitionsFor(tp.topic()).size()).join();
        consumer.seek(tp, offset);
        consumer.resume(List.of(tp));
        unopened.remove(tp);
      } catch (CompletionException e) {
        if (e.getCause() instanceof PipelineGoneException) {
          unopened.remove(tp);
        } else {
          log.debug("partition {} waits for the store: {}", tp, e.getCause().toString());
        }
      }
    }
  }

  private OwnedPartitions.Id id(TopicPartition tp) {
    String pipeline = pipelines.get(tp.topic());
    return pipeline == null ? null : new OwnedPartitions.Id(pipeline, tp.partition());
  }

  /** Runs inside poll, on this thread: nothing of this consumer's is in flight then. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
      rebalances.incrementAndGet();
      for (TopicPartition tp : revoked) {
        unopened.remove(tp);
        OwnedPartitions.Id id = id(tp);
        if (id != null) {
          partitions.close(id).join();
        }
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lost) {
      // Another replica owns them already and has fenced this one: nothing here can commit.
      onPartitionsRevoked(lost);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
      joined = true;
      for (TopicPartition tp : assigned) {
        if (id(tp) != null) {
          unopened.add(tp);
          consumer.pause(List.of(tp));
        }
      }
      openUnopened();
    }
  }
}
