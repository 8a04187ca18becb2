package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.reactivestreams.Subscription;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.SignalType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The receiving end of {@code GET /pipelines/{name}/panes}: a real SSE subscription whose demand
 * the test controls, so that it can play a fast or a slow dashboard.
 */
public final class PaneStream extends BaseSubscriber<ServerSentEvent<String>>
    implements AutoCloseable {
  /**
   * An event as received: its SSE type, id and parsed data, and when it arrived ({@link
   * System#nanoTime}). Two are equal when the event is: tests compare what streams received, and
   * the arrival time is a measurement of the receiving, not part of the event.
   */
  public record Received(String type, String id, JsonNode data, long at) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Received r
          && Objects.equals(type, r.type)
          && Objects.equals(id, r.id)
          && Objects.equals(data, r.data);
    }

    @Override
    public int hashCode() {
      return Objects.hash(type, id, data);
    }
  }

  private final long initialDemand;
  private final BlockingQueue<Received> events = new LinkedBlockingQueue<>();

  /** Progress events apart: every stream carries them, and most tests are about panes. */
  private final BlockingQueue<Received> progress = new LinkedBlockingQueue<>();

  private final Semaphore heartbeats = new Semaphore(0);
  private final CountDownLatch ended = new CountDownLatch(1);
  private final CountDownLatch opened = new CountDownLatch(1);
  private volatile Throwable failure;

  private static final String PROGRESS = "progress";

  PaneStream(long initialDemand) {
    this.initialDemand = initialDemand;
  }

  @Override
  protected void hookOnSubscribe(Subscription subscription) {
    request(initialDemand);
  }

  @Override
  protected void hookOnNext(ServerSentEvent<String> sse) {
    if (sse.event() == null && sse.data() == null) {
      assertThat(sse.comment()).isEqualTo("heartbeat");
      heartbeats.release();
    } else {
      Received r =
          new Received(
              sse.event(), sse.id(), JsonMapper.shared().readTree(sse.data()), System.nanoTime());
      (PROGRESS.equals(r.type()) ? progress : events).add(r);
      if (PROGRESS.equals(r.type())) {
        opened.countDown();
      }
    }
  }

  @Override
  protected void hookOnError(Throwable error) {
    failure = error;
  }

  @Override
  protected void hookFinally(SignalType type) {
    ended.countDown();
  }

  /** Asks the server for {@code n} more events. */
  public void more(long n) {
    request(n);
  }

  /** The next event other than progress, waiting for it. */
  public Received next() {
    return next(events);
  }

  /** The next progress event, waiting for it. */
  public Received nextProgress() {
    return next(progress);
  }

  /**
   * Progress events until one says {@code finalThrough} has reached {@code time} (ISO text, or
   * {@code +inf}), failing when none does in time; returns that one.
   */
  public JsonNode progressThrough(String time) {
    while (true) {
      JsonNode p = nextProgress().data();
      String through = p.get("finalThrough").asString();
      if (through.equals("+inf") || (!time.equals("+inf") && through.compareTo(time) >= 0)) {
        return p;
      }
    }
  }

  private static Received next(BlockingQueue<Received> queue) {
    try {
      Received r = queue.poll(LiveApi.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      if (r == null) {
        fail("no event within " + LiveApi.TIMEOUT);
      }
      return r;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The next event, which must be a pane; returns its record. */
  public JsonNode nextPane() {
    Received r = next();
    assertThat(r.type()).as("event %s", r).isEqualTo("pane");
    return r.data();
  }

  /** The next {@code n} events. */
  public List<Received> next(int n) {
    List<Received> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(next());
    }
    return out;
  }

  /** Every event received so far and not yet taken. */
  public List<Received> drained() {
    List<Received> out = new ArrayList<>();
    events.drainTo(out);
    return out;
  }

  /** Waits for {@code n} more heartbeat comments. */
  public void awaitHeartbeats(int n) {
    try {
      if (!heartbeats.tryAcquire(n, LiveApi.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail(n + " heartbeats did not come within " + LiveApi.TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Waits for the progress every stream opens with (it stays to be taken): the server has
   * registered the subscriber.
   */
  public void awaitOpening() {
    try {
      if (!opened.await(LiveApi.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("the stream did not open with its progress within " + LiveApi.TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Waits for the server to end the stream. */
  public void awaitEnd() {
    try {
      if (!ended.await(LiveApi.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("the stream did not end within " + LiveApi.TIMEOUT);
      }
      assertThat(failure).as("how the stream ended").isNull();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    dispose();
  }
}
