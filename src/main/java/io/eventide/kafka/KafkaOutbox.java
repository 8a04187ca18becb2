package io.eventide.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * The one way records reach Kafka. Shard threads only {@link #offer} (never blocking); a single
 * sender thread hands the records to the producer in the order they were offered, so panes of one
 * key keep their order. A record the producer refuses (no metadata, buffer full: the broker is
 * away) is offered again, the same record first, until it is taken; once taken, the idempotent
 * producer retries it in order for as long as it takes.
 */
public class KafkaOutbox implements DisposableBean {
  private static final Logger log = LoggerFactory.getLogger(KafkaOutbox.class);

  /** A record and the cleanup policy its topic gets if Eventide creates it. */
  private record Outgoing(ProducerRecord<String, byte[]> record, String cleanupPolicy) {}

  private final LinkedBlockingQueue<Outgoing> queue;
  private final Producer<String, byte[]> producer;
  private final Admin admin;
  private final Duration retryBackoff;
  private final Set<String> ensuredTopics = ConcurrentHashMap.newKeySet();
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong unacknowledged = new AtomicLong();
  private final Thread sender;
  private volatile boolean running = true;

  public KafkaOutbox(
      Producer<String, byte[]> producer, Admin admin, int capacity, Duration retryBackoff) {
    this.producer = producer;
    this.admin = admin;
    this.retryBackoff = retryBackoff;
    this.queue = new LinkedBlockingQueue<>(capacity);
    this.sender = new Thread(this::run, "eventide-kafka-sender");
    sender.setDaemon(true);
    sender.start();
  }

  /**
   * Queues a record without waiting; false (and counted) when the outbox is full.
   *
   * @param cleanupPolicy {@code compact} or {@code delete}: the topic is created with it before its
   *     first record, unless it exists
   */
  public boolean offer(ProducerRecord<String, byte[]> record, String cleanupPolicy) {
    if (queue.offer(new Outgoing(record, cleanupPolicy))) {
      return true;
    }
    if (dropped.getAndIncrement() % 10_000 == 0) {
      log.error(
          "Kafka outbox full ({} records): dropping records for {} (dropped so far: {})",
          queue.size(),
          record.topic(),
          dropped.get());
    }
    return false;
  }

  /** Records offered but not yet confirmed by the broker. */
  public long pending() {
    return queue.size() + unacknowledged.get();
  }

  public long delivered() {
    return delivered.get();
  }

  /** Records refused because the outbox was full. */
  public long dropped() {
    return dropped.get();
  }

  /** Records the broker rejected for good (too large, not authorised). */
  public long failed() {
    return failed.get();
  }

  private void run() {
    while (running) {
      Outgoing record;
      try {
        record = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      while (running && !send(record)) {
        pause();
      }
    }
  }

  /** Hands one record to the producer; false when it must be offered again. */
  private boolean send(Outgoing outgoing) {
    ProducerRecord<String, byte[]> record = outgoing.record();
    if (!ensureTopic(record.topic(), outgoing.cleanupPolicy())) {
      return false;
    }
    unacknowledged.incrementAndGet();
    Future<RecordMetadata> sent;
    try {
      sent =
          producer.send(
              record,
              (metadata, error) -> {
                unacknowledged.decrementAndGet();
                if (error == null) {
                  delivered.incrementAndGet();
                } else if (!(error instanceof RetriableException)) {
                  // Retriable errors end here only when the producer refused the record at once
                  // (below); once taken, delivery.timeout.ms is unbounded.
                  failed.incrementAndGet();
                  log.error("Kafka rejected a record for {}", record.topic(), error);
                }
              });
    } catch (KafkaException e) {
      unacknowledged.decrementAndGet();
      return refused(record, e);
    }
    // A record the producer could not take (no metadata within max.block.ms, buffer full) comes
    // back as a failed future at once, never from a request in flight.
    if (sent.isDone()) {
      try {
        sent.get();
      } catch (ExecutionException e) {
        return refused(record, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
        return false;
      }
    }
    return true;
  }

  /** Whether the record is done with (true) or must be offered again (false). */
  private boolean refused(ProducerRecord<String, byte[]> record, Throwable e) {
    if (e instanceof RetriableException || e.getCause() instanceof RetriableException) {
      log.warn("Kafka unavailable for {}, will retry: {}", record.topic(), e.getMessage());
      return false;
    }
    failed.incrementAndGet();
    log.error("Kafka refused a record for {}", record.topic(), e);
    return true;
  }

  /**
   * Creates the topic with its cleanup policy before its first record, as the broker's
   * auto-creation would give a compacted changelog the wrong policy.
   *
   * @return false when the cluster did not answer, so that the record waits for it
   */
  private boolean ensureTopic(String topic, String cleanupPolicy) {
    if (ensuredTopics.contains(topic)) {
      return true;
    }
    NewTopic spec =
        new NewTopic(topic, Optional.empty(), Optional.empty())
            .configs(Map.of("cleanup.policy", cleanupPolicy));
    try {
      admin
          .createTopics(List.of(spec))
          .all()
          .get(retryBackoff.toMillis() * 5, TimeUnit.MILLISECONDS);
      ensuredTopics.add(topic);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RetriableException) {
        log.warn("Kafka unavailable, cannot create topic {}: {}", topic, e.getCause().getMessage());
        return false;
      }
      // The topic exists, or creating it is not ours to do: the records go to it as it is.
      if (!(e.getCause() instanceof TopicExistsException)) {
        log.warn("not creating topic {}: {}", topic, e.getCause().getMessage());
      }
      ensuredTopics.add(topic);
      return true;
    } catch (TimeoutException e) {
      log.warn("Kafka unavailable, cannot create topic {}: no answer", topic);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
      return false;
    }
  }

  private void pause() {
    try {
      Thread.sleep(retryBackoff.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Gives what is queued a moment to leave, then closes the producer. */
  @Override
  public void destroy() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!queue.isEmpty() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    running = false;
    sender.interrupt();
    sender.join(TimeUnit.SECONDS.toMillis(5));
    producer.close(Duration.ofSeconds(5));
    admin.close(Duration.ofSeconds(1));
  }
}
