package io.eventide.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * The way dead letters reach Kafka (panes are forwarded from the pane log instead, by {@link
 * PaneForwarder}). Committers only {@link #offer} (never blocking); a sender thread hands the
 * records to the producer, each topic's in the order they were offered. What the outbox holds is
 * lost with the process. Each topic is a destination of its own, so that one that does not resolve
 * (a missing topic that cannot be created, a name that collides) holds up no other:
 *
 * <ul>
 *   <li>a topic is sent to only once the cluster has shown it exists (asked without blocking the
 *       sender), and created with its cleanup policy first if it does not;
 *   <li>a record the producer refuses (no metadata, buffer full) stays at the head of its topic,
 *       which backs off, doubling from {@code retryBackoff} up to {@code maxRetryBackoff}, while
 *       the other topics go on; once taken, the idempotent producer retries it in order for as long
 *       as it takes;
 *   <li>a topic still refused {@code parkAfter} after it began to fail, while records of other
 *       topics were delivered meanwhile (so it is the topic, not the cluster), is <b>parked</b>:
 *       its records are dropped and counted, so that it cannot fill the outbox that the others
 *       share, and it is tried again every {@code maxRetryBackoff} until it resolves. While the
 *       whole cluster is away nothing is parked: the records wait, up to the capacity.
 * </ul>
 */
public class KafkaOutbox implements DisposableBean {
  private static final Logger log = LoggerFactory.getLogger(KafkaOutbox.class);

  /** Records of one topic handed to the producer before the sender looks at the next topic. */
  private static final int TURN = 500;

  /** Where a destination stands with the cluster. */
  private enum Standing {
    /** Not known to exist (yet, or since a refusal); asked about when it is due. */
    UNKNOWN,
    /** Being asked about (created, then described), off the sender thread. */
    ASKING,
    READY
  }

  /** One topic: its records in order, and how it has fared. Guarded by the outbox's lock. */
  private static final class Destination {
    final String topic;
    final String cleanupPolicy;
    final ArrayDeque<ProducerRecord<String, byte[]>> queue = new ArrayDeque<>();
    Standing standing = Standing.UNKNOWN;

    /** Refused for a while although other topics were delivered: its records are dropped. */
    boolean parked;

    int failures;
    long retryAt;
    long failingSince;
    long deliveredWhenFailing;
    String lastError;

    Destination(String topic, String cleanupPolicy) {
      this.topic = topic;
      this.cleanupPolicy = cleanupPolicy;
    }
  }

  /** A topic that is failing or parked, for health and logs. */
  public record Trouble(String topic, boolean parked, int failures, String lastError) {}

  private final Object lock = new Object();
  private final Map<String, Destination> destinations = new LinkedHashMap<>();
  private final Producer<String, byte[]> producer;
  private final KafkaTopics topics;
  private final int capacity;
  private final Duration retryBackoff;
  private final Duration maxRetryBackoff;
  private final Duration parkAfter;
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong unacknowledged = new AtomicLong();
  private final Thread sender;

  /** Records queued over all destinations; guarded by lock. */
  private int queued;

  private volatile boolean running = true;

  public KafkaOutbox(
      Producer<String, byte[]> producer,
      KafkaTopics topics,
      int capacity,
      Duration retryBackoff,
      Duration maxRetryBackoff,
      Duration parkAfter) {
    this.producer = producer;
    this.topics = topics;
    this.capacity = capacity;
    this.retryBackoff = retryBackoff;
    this.maxRetryBackoff = maxRetryBackoff;
    this.parkAfter = parkAfter;
    this.sender = new Thread(this::run, "eventide-kafka-sender");
    sender.setDaemon(true);
    sender.start();
  }

  /**
   * Queues a record without waiting; false (and counted) when the outbox is full or its topic is
   * parked.
   *
   * @param cleanupPolicy {@code compact} or {@code delete}: the topic is created with it before its
   *     first record, unless it exists
   */
  public boolean offer(ProducerRecord<String, byte[]> record, String cleanupPolicy) {
    synchronized (lock) {
      Destination d =
          destinations.computeIfAbsent(record.topic(), t -> new Destination(t, cleanupPolicy));
      if (!d.parked && queued < capacity) {
        d.queue.addLast(record);
        queued++;
        lock.notifyAll();
        return true;
      }
    }
    if (dropped.getAndIncrement() % 10_000 == 0) {
      log.error(
          "Kafka outbox dropping records for {}: the outbox is full or the topic is parked"
              + " (dropped so far: {})",
          record.topic(),
          dropped.get());
    }
    return false;
  }

  /** Records offered but not yet confirmed by the broker. */
  public long pending() {
    synchronized (lock) {
      return queued + unacknowledged.get();
    }
  }

  public long delivered() {
    return delivered.get();
  }

  /** Records dropped because the outbox was full or their topic was parked. */
  public long dropped() {
    return dropped.get();
  }

  /** Records the broker rejected for good (too large, not authorised). */
  public long failed() {
    return failed.get();
  }

  /** Topics that are failing or parked now. */
  public List<Trouble> troubles() {
    List<Trouble> out = new ArrayList<>();
    synchronized (lock) {
      for (Destination d : destinations.values()) {
        if (d.failures > 0) {
          out.add(new Trouble(d.topic, d.parked, d.failures, d.lastError));
        }
      }
    }
    return out;
  }

  /** Topics parked now. */
  public long parked() {
    return troubles().stream().filter(Trouble::parked).count();
  }

  private void run() {
    while (running) {
      try {
        sendDue();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One round over the destinations: asks about those due, sends a turn of each ready one. */
  private void sendDue() throws InterruptedException {
    List<Destination> ready = new ArrayList<>();
    synchronized (lock) {
      long now = System.nanoTime();
      long wake = Long.MAX_VALUE;
      for (Destination d : destinations.values()) {
        boolean due = now - d.retryAt >= 0;
        if (d.standing == Standing.UNKNOWN && due && (!d.queue.isEmpty() || d.parked)) {
          d.standing = Standing.ASKING;
          ask(d);
        } else if (d.standing == Standing.READY && due && !d.queue.isEmpty()) {
          ready.add(d);
        } else if (!due) {
          wake = Math.min(wake, d.retryAt - now);
        }
      }
      if (ready.isEmpty()) {
        long waitMillis =
            wake == Long.MAX_VALUE ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(wake));
        lock.wait(waitMillis);
        return;
      }
    }
    for (Destination d : ready) {
      for (int i = 0; i < TURN && running; i++) {
        ProducerRecord<String, byte[]> head;
        synchronized (lock) {
          head = d.queue.peekFirst();
        }
        if (head == null || !send(d, head)) {
          break;
        }
        synchronized (lock) {
          d.queue.pollFirst();
          queued--;
        }
      }
    }
  }

  /** Asks the cluster, off the sender thread, whether a topic exists, creating it first. */
  private void ask(Destination d) {
    topics
        .ensure(d.topic, d.cleanupPolicy)
        .handle((v, error) -> error == null ? null : KafkaTopics.cause(error))
        .thenAccept(
            refusal -> {
              synchronized (lock) {
                if (refusal == null) {
                  resolved(d);
                } else {
                  refused(d, refusal);
                }
                lock.notifyAll();
              }
            });
  }

  /** Hands one record to the producer; false when the destination must back off. */
  private boolean send(Destination d, ProducerRecord<String, byte[]> record) {
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
      return gaveUp(d, record, e);
    }
    // A record the producer could not take (no metadata within max.block.ms, buffer full) comes
    // back as a failed future at once, never from a request in flight.
    if (sent.isDone()) {
      try {
        sent.get();
      } catch (ExecutionException e) {
        return gaveUp(d, record, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
        return false;
      }
    }
    return true;
  }

  /** Whether the record is done with (true: rejected for good) or must wait (false). */
  private boolean gaveUp(Destination d, ProducerRecord<String, byte[]> record, Throwable e) {
    if (e instanceof RetriableException || e.getCause() instanceof RetriableException) {
      synchronized (lock) {
        refused(d, e);
      }
      return false;
    }
    failed.incrementAndGet();
    log.error("Kafka refused a record for {}", record.topic(), e);
    return true;
  }

  /** The topic exists: its records go. Called under the lock. */
  private void resolved(Destination d) {
    if (d.failures > 0) {
      log.info(
          "Kafka topic {} resolved after {} failed attempts{}",
          d.topic,
          d.failures,
          d.parked ? "; no longer parked" : "");
    }
    d.standing = Standing.READY;
    d.parked = false;
    d.failures = 0;
    d.retryAt = System.nanoTime();
    d.lastError = null;
  }

  /** The topic was refused: it backs off, and is parked if it alone keeps failing. Under lock. */
  private void refused(Destination d, Throwable e) {
    long now = System.nanoTime();
    if (d.failures == 0) {
      d.failingSince = now;
      d.deliveredWhenFailing = delivered.get();
      log.warn("Kafka refused topic {}, will retry: {}", d.topic, e.getMessage());
    }
    d.failures++;
    d.lastError = e.getMessage();
    // Asked about again when due: a refused send may mean the topic went away.
    d.standing = Standing.UNKNOWN;
    boolean othersDelivered = delivered.get() > d.deliveredWhenFailing;
    if (!d.parked && now - d.failingSince >= parkAfter.toNanos() && othersDelivered) {
      d.parked = true;
      dropped.addAndGet(d.queue.size());
      queued -= d.queue.size();
      log.error(
          "Kafka topic {} parked after failing for {} while other topics were delivered: its {}"
              + " queued records are dropped, and so are new ones until it resolves: {}",
          d.topic,
          parkAfter,
          d.queue.size(),
          d.lastError);
      d.queue.clear();
    }
    long backoff =
        d.parked
            ? maxRetryBackoff.toNanos()
            : Math.min(
                maxRetryBackoff.toNanos(), retryBackoff.toNanos() << Math.min(d.failures - 1, 20));
    d.retryAt = now + backoff;
  }

  /** Gives what is queued a moment to leave, then closes the producer. */
  @Override
  public void destroy() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (pending() > 0 && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    running = false;
    sender.interrupt();
    sender.join(TimeUnit.SECONDS.toMillis(5));
    producer.close(Duration.ofSeconds(5));
  }
}
