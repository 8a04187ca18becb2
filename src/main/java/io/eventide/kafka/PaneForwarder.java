package io.eventide.kafka;

import io.eventide.sink.ForwarderStore;
import io.eventide.sink.ForwarderStore.Checkpoint;
import io.eventide.sink.LogPage;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneLogs;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one pipeline's panes from its pane log to its Kafka topic, on the replica that holds the
 * pipeline's forwarder lease. Each round reads a page after the checkpointed position, hands its
 * panes and retractions to the idempotent producer, waits for every acknowledgement, and only then
 * writes the position as the checkpoint, fenced by the lease's token. A crash or a takeover
 * therefore loses nothing: the next holder sends again what was sent after the last checkpoint,
 * with the same keys and pane indexes.
 *
 * <p>At most one round runs at a time. A commit of this process wakes the forwarder at once ({@link
 * #wake}); other replicas' commits are found by a read every poll interval ({@link #idle}). All
 * state is guarded by {@code this}; the work runs on the forwarders' executor, never on a Redis or
 * Kafka client's own thread.
 */
final class PaneForwarder {
  private static final Logger log = LoggerFactory.getLogger(PaneForwarder.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Where a pipeline's panes go: its sink's topic, created with this cleanup policy if missing. */
  record Target(String topic, String cleanupPolicy) {}

  /**
   * What a round achieved: the position it reached, whether the log may hold more right away, the
   * panes the broker acknowledged, and why it stopped short, if it did.
   */
  private record Outcome(Checkpoint reached, boolean more, int acknowledged, Throwable stoppedBy) {}

  private final String pipeline;
  private final PaneLogs logs;
  private final ForwarderStore store;
  private final Producer<String, byte[]> producer;
  private final KafkaTopics topics;
  private final KafkaSettings.Forwarder settings;
  private final Duration retryBackoff;
  private final Duration maxRetryBackoff;
  private final ScheduledExecutorService executor;

  private final AtomicLong forwarded = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong fenced = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  private volatile Target target;

  /** The lease's token while this replica holds it, else null. */
  private String token;

  /** Until when (System.nanoTime) the lease is surely this replica's, as of its last renewal. */
  private long leaseUntil;

  /** How far forwarding stands while the lease is held; null until the checkpoint is read. */
  private Checkpoint position;

  /** The topic the cluster last showed to exist; asked again after a refused send. */
  private String readyTopic;

  /** Wall-clock ms of the oldest entry read but not yet sent; 0 when everything read was sent. */
  private long oldestUnsent;

  private boolean renewing;
  private boolean reading;
  private boolean woken;
  private boolean stopped;
  private int failures;
  private String lastError;
  private ScheduledFuture<?> renewal;
  private ScheduledFuture<?> next;

  PaneForwarder(
      String pipeline,
      Target target,
      PaneLogs logs,
      ForwarderStore store,
      Producer<String, byte[]> producer,
      KafkaTopics topics,
      KafkaSettings settings,
      ScheduledExecutorService executor) {
    this.pipeline = pipeline;
    this.target = target;
    this.logs = logs;
    this.store = store;
    this.producer = producer;
    this.topics = topics;
    this.settings = settings.forwarder();
    this.retryBackoff = settings.retryBackoff();
    this.maxRetryBackoff = settings.maxRetryBackoff();
    this.executor = executor;
  }

  /** Starts taking (and renewing) the lease; rounds run while it is held. */
  synchronized void start() {
    long ms = settings.renewInterval().toMillis();
    renewal = executor.scheduleWithFixedDelay(this::renew, 0, ms, TimeUnit.MILLISECONDS);
  }

  /** The pipeline's sink changed: rounds from now on send to {@code target}. */
  void retarget(Target target) {
    this.target = target;
  }

  Target target() {
    return target;
  }

  /**
   * Stops, and gives up the lease so that another replica may take over at once. A round in flight
   * finishes, and its checkpoint is fenced if another holder has taken the lease meanwhile.
   */
  CompletableFuture<Void> stop() {
    String held;
    synchronized (this) {
      stopped = true;
      cancel(renewal);
      cancel(next);
      held = token;
      token = null;
      position = null;
    }
    return held == null
        ? CompletableFuture.completedFuture(null)
        : store.release(pipeline, held).onErrorComplete().toFuture();
  }

  /** Entries were committed to the log by this process: read them now, unless backing off. */
  synchronized void wake() {
    if (reading) {
      woken = true;
    } else if (token != null && failures == 0 && !stopped) {
      schedule(Duration.ZERO);
    }
  }

  /**
   * Waits for new entries: a wake, or a read after the poll interval for what other replicas
   * committed. A blocking read of the log could take the poll's place here.
   */
  private void idle() {
    schedule(settings.pollInterval());
  }

  private void renew() {
    String held;
    String asked;
    long started = System.nanoTime();
    synchronized (this) {
      if (stopped || renewing) {
        return;
      }
      renewing = true;
      held = token;
      asked = held != null ? held : newToken();
    }
    (held != null
            ? store.extend(pipeline, held, settings.leaseTime())
            : store.acquire(pipeline, asked, settings.leaseTime()))
        .toFuture()
        .whenCompleteAsync(
            (granted, error) -> leased(held, asked, started, granted, error), executor);
  }

  private synchronized void leased(
      String held, String asked, long started, Boolean granted, Throwable error) {
    renewing = false;
    if (stopped) {
      if (error == null && Boolean.TRUE.equals(granted) && held == null) {
        store.release(pipeline, asked).onErrorComplete().subscribe();
      }
      return;
    }
    if (error != null) {
      // Unknown, not lost: the lease runs out by itself at leaseUntil, and rounds stop then.
      log.debug("pipeline {}: the forwarder lease could not be renewed: {}", pipeline, error);
      return;
    }
    if (Boolean.TRUE.equals(granted)) {
      leaseUntil = started + settings.leaseTime().toNanos();
      if (held == null) {
        log.info("this replica forwards the panes of pipeline {} to Kafka", pipeline);
        token = asked;
        failures = 0;
      }
      if (!reading && next == null) {
        // A new lease, or rounds that stopped as the lease was running out unrenewed.
        schedule(Duration.ZERO);
      }
    } else if (held != null && held.equals(token)) {
      log.warn(
          "pipeline {}: the forwarder lease was lost (it expired, another replica took it, or the"
              + " pipeline's state was dropped); forwarding stops here",
          pipeline);
      loseLease();
      executor.execute(this::renew);
    }
  }

  /** Forgets the lease and where forwarding stood: a new lease reads the checkpoint again. */
  private void loseLease() {
    token = null;
    position = null;
    oldestUnsent = 0;
    cancel(next);
  }

  private void round() {
    String t;
    Target to;
    Checkpoint from;
    synchronized (this) {
      next = null;
      if (stopped || reading || token == null || System.nanoTime() - leaseUntil >= 0) {
        return;
      }
      reading = true;
      woken = false;
      t = token;
      to = target;
      from = position;
    }
    CompletableFuture<Checkpoint> start =
        from != null
            ? CompletableFuture.completedFuture(from)
            : store
                .checkpoint(pipeline)
                // No checkpoint: start at whatever the log holds (read < 0: not counted yet).
                .defaultIfEmpty(new Checkpoint(LogPage.START, -1))
                .toFuture();
    start
        .thenCompose(
            f ->
                logs.panesAfter(pipeline, f.position(), settings.pageSize())
                    .toFuture()
                    .thenComposeAsync(page -> forward(t, to, f, page), executor))
        .whenCompleteAsync((outcome, error) -> finished(t, outcome, error), executor);
  }

  /** Sends a page's panes and checkpoints what the broker acknowledged. */
  private CompletableFuture<Outcome> forward(String t, Target to, Checkpoint from, LogPage page) {
    boolean behind = page.lostAfter(from.position());
    if (behind && from.read() >= 0) {
      long gone = page.trimmed() - from.read();
      lost.addAndGet(gone);
      log.error(
          "pipeline {}: the Kafka pane forwarder fell out of the pane log's retention: {} log"
              + " entries after {} were trimmed before they were sent, and are lost to topic {};"
              + " forwarding goes on from {}. The log keeps eventide.state.pane-log-max-length"
              + " entries: the topic must not stay unreachable for longer than they take to"
              + " commit",
          pipeline,
          gone,
          from.position(),
          to.topic(),
          page.trimmedThrough());
    }
    if (behind || from.read() < 0) {
      // Behind: on from the oldest entry the log holds. No checkpoint yet: the same, and what the
      // log no longer holds was never this forwarder's to send. Either way the page carries the
      // log's bounds (LogPage#held leaves them out only for a page that lost nothing after a
      // position the log held; with no checkpoint the position is LogPage.START).
      Checkpoint start =
          behind
              ? new Checkpoint(page.trimmedThrough(), page.trimmed())
              : new Checkpoint(from.position(), page.trimmed());
      return checkpointed(t, new Outcome(start, true, 0, null));
    }
    List<PaneEvent> entries = page.entries();
    if (entries.isEmpty()) {
      synchronized (this) {
        oldestUnsent = 0;
      }
      return CompletableFuture.completedFuture(new Outcome(from, false, 0, null));
    }
    synchronized (this) {
      oldestUnsent = millis(entries.get(0).id());
    }
    boolean full = entries.size() == settings.pageSize();
    // Off the admin client's and the producer's own threads, which must not wait on anything.
    return ensure(to)
        .thenComposeAsync(v -> send(to, from, entries, full), executor)
        .thenComposeAsync(outcome -> checkpointed(t, outcome), executor);
  }

  private CompletableFuture<Void> ensure(Target to) {
    synchronized (this) {
      if (to.topic().equals(readyTopic)) {
        return CompletableFuture.completedFuture(null);
      }
    }
    return topics
        .ensure(to.topic(), to.cleanupPolicy())
        .thenRun(
            () -> {
              synchronized (this) {
                readyTopic = to.topic();
              }
            });
  }

  /**
   * Hands the panes, retractions and finals to the producer in log order (merges and progress
   * markers are not sent) and waits for their acknowledgements. A record the producer refuses at
   * once (no metadata in time, its buffer full) ends the handing out, as does a retriable failure
   * later: the round reaches the entry before it, and the rest is sent again. A record the broker
   * refuses for good (too large, not authorised) is counted and skipped, or it would hold up the
   * pipeline's panes forever.
   */
  private CompletableFuture<Outcome> send(
      Target to, Checkpoint from, List<PaneEvent> entries, boolean full) {
    List<CompletableFuture<Void>> acks = new ArrayList<>(entries.size());
    int handed = 0;
    Throwable refusedAtOnce = null;
    for (PaneEvent e : entries) {
      CompletableFuture<Void> ack = new CompletableFuture<>();
      if (!e.kind().isSent()) {
        ack.complete(null);
      } else {
        Future<RecordMetadata> sent;
        try {
          sent =
              producer.send(
                  KafkaPaneRecords.of(to.topic(), e),
                  (metadata, error) -> {
                    if (error == null) {
                      ack.complete(null);
                    } else {
                      ack.completeExceptionally(error);
                    }
                  });
        } catch (KafkaException error) {
          refusedAtOnce = error;
          break;
        }
        Throwable atOnce = failedAtOnce(sent);
        if (atOnce instanceof RetriableException) {
          refusedAtOnce = atOnce;
          break;
        }
      }
      acks.add(ack);
      handed++;
    }
    Throwable stoppedAtHanding = refusedAtOnce;
    int count = handed;
    return CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
        .handle(
            (v, ignored) -> {
              int reached = -1;
              int acknowledged = 0;
              Throwable stoppedBy = stoppedAtHanding;
              for (int i = 0; i < count; i++) {
                Throwable error = acks.get(i).handle((ok, x) -> x).join();
                if (error instanceof RetriableException) {
                  stoppedBy = error;
                  break;
                }
                if (error != null) {
                  refused.incrementAndGet();
                  log.error(
                      "Kafka refused for good a record of pipeline {} for {}; it is skipped",
                      pipeline,
                      to.topic(),
                      error);
                } else if (entries.get(i).kind().isSent()) {
                  acknowledged++;
                }
                reached = i;
              }
              Checkpoint at =
                  reached < 0
                      ? from
                      : new Checkpoint(entries.get(reached).id(), from.read() + reached + 1);
              boolean whole = reached == entries.size() - 1;
              return new Outcome(at, whole && full, acknowledged, stoppedBy);
            });
  }

  /** Writes the checkpoint when the round moved it; a fenced write ends the lease here. */
  private CompletableFuture<Outcome> checkpointed(String t, Outcome outcome) {
    return store
        .saveCheckpoint(pipeline, t, outcome.reached())
        .toFuture()
        .handle(
            (written, error) -> {
              if (error != null) {
                // Kept in memory: the next round's checkpoint carries it.
                log.debug("pipeline {}: checkpoint not written: {}", pipeline, error.toString());
              } else if (!written) {
                fenced.incrementAndGet();
                log.warn(
                    "pipeline {}: the forwarder's checkpoint was refused, as this replica no"
                        + " longer holds the lease; another replica forwards from its own",
                    pipeline);
                throw new FencedException();
              }
              return outcome;
            });
  }

  private synchronized void finished(String t, Outcome outcome, Throwable error) {
    reading = false;
    if (stopped || !t.equals(token)) {
      return;
    }
    Throwable cause = error == null ? null : KafkaTopics.cause(error);
    if (cause instanceof FencedException) {
      loseLease();
      executor.execute(this::renew);
      return;
    }
    if (outcome != null) {
      position = outcome.reached();
      forwarded.addAndGet(outcome.acknowledged());
      cause = outcome.stoppedBy();
      if (cause == null && !outcome.more()) {
        oldestUnsent = 0;
      }
    }
    if (cause != null) {
      failures++;
      if (failures == 1 || !String.valueOf(cause.getMessage()).equals(lastError)) {
        log.warn("pipeline {}: forwarding panes to Kafka failed, will retry: {}", pipeline, cause);
      }
      lastError = String.valueOf(cause.getMessage());
      readyTopic = null;
      long backoff =
          Math.min(
              maxRetryBackoff.toMillis(), retryBackoff.toMillis() << Math.min(failures - 1, 20));
      schedule(Duration.ofMillis(backoff));
      return;
    }
    if (failures > 0) {
      log.info("pipeline {}: forwarding panes to Kafka resumed", pipeline);
    }
    failures = 0;
    lastError = null;
    if (outcome.more() || woken) {
      schedule(Duration.ZERO);
    } else {
      idle();
    }
  }

  /** Runs the next round after {@code delay}, or sooner if one is already due sooner. */
  private synchronized void schedule(Duration delay) {
    if (stopped) {
      return;
    }
    if (next != null) {
      if (next.getDelay(TimeUnit.MILLISECONDS) <= delay.toMillis()) {
        return;
      }
      next.cancel(false);
    }
    next = executor.schedule(this::round, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static void cancel(ScheduledFuture<?> f) {
    if (f != null) {
      f.cancel(false);
    }
  }

  /** The failure of a send the producer refused before taking it, else null. */
  private static Throwable failedAtOnce(Future<RecordMetadata> sent) {
    if (!sent.isDone()) {
      return null;
    }
    try {
      sent.get();
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    }
  }

  private static String newToken() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** The wall-clock milliseconds a pane log id starts with. */
  private static long millis(String id) {
    int dash = id.indexOf('-');
    return Long.parseLong(dash < 0 ? id : id.substring(0, dash));
  }

  synchronized boolean holdsLease() {
    return token != null && System.nanoTime() - leaseUntil < 0;
  }

  /** Seconds since the oldest entry read but not yet sent was committed; NaN without the lease. */
  synchronized double lagSeconds() {
    if (!holdsLease()) {
      return Double.NaN;
    }
    return oldestUnsent == 0 ? 0 : Math.max(0, System.currentTimeMillis() - oldestUnsent) / 1000.0;
  }

  long forwarded() {
    return forwarded.get();
  }

  long lost() {
    return lost.get();
  }

  long fenced() {
    return fenced.get();
  }

  long refused() {
    return refused.get();
  }

  /** What the health indicator shows of this forwarder. */
  synchronized Status status() {
    return new Status(
        holdsLease(), target.topic(), position == null ? null : position.position(), lastError);
  }

  /**
   * @param lease whether this replica holds the forwarder lease
   * @param topic where the pipeline's panes go
   * @param position the last entry sent and acknowledged, when the lease is held
   * @param lastError why forwarding is being retried, if it is
   */
  record Status(boolean lease, String topic, String position, String lastError) {}

  /** A checkpoint refused because another replica holds the lease now. */
  private static final class FencedException extends RuntimeException {
    FencedException() {
      super("fenced", null, false, false);
    }
  }
}
