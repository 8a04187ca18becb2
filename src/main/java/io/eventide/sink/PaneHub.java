package io.eventide.sink;

import io.eventide.core.OutputProgress;
import io.eventide.core.render.PaneRecords;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Pane streams that read the pipeline's pane log, each from its own position at its own pace: a
 * subscriber reads the next page of the log only when its client has taken the previous one, so it
 * holds at most one page whatever the burst, and nobody waits for it. A commit of this process
 * wakes the subscribers of its pipeline, and while a pipeline has subscribers one {@link
 * PaneLogWatch} wakes them for every commit, whichever replica made it; they read what was appended
 * from the store themselves. A subscriber whose position falls out of the log's retention gets a
 * final {@link PaneStreamItem.Behind} with the position to resume from. A failed read is retried at
 * the next wake or poll.
 *
 * <p>Every stream also carries the pipeline's progress ({@link LogEntryKind#PROGRESS}): the first
 * thing it sends, then again whenever a read that reached the log's end finds it moved, at most
 * every {@link #PROGRESS_INTERVAL}. The progress is read before the log: what it makes final was
 * committed before that read, so every pane it covers is in the log the read returns, and a
 * progress never precedes a pane of a window it declares final.
 */
@Component
public class PaneHub implements PaneListener {
  /** A stream's progress goes out at most this often: a few a second is all a reader needs. */
  static final Duration PROGRESS_INTERVAL = Duration.ofMillis(250);

  private final Map<String, Channel> channels = new ConcurrentHashMap<>();

  /** Completed by {@link #closeAll}; a new one once the service starts again ({@link #open}). */
  private volatile Sinks.Empty<Void> closedAll = Sinks.empty();

  private final Scheduler scheduler = Schedulers.parallel();
  private final PaneLogWatch watch;
  private final int pageSize;
  private final Duration poll;

  /**
   * A pipeline's subscribers and the watch of its log, which lives exactly as long as the channel
   * has subscribers: the first one starts it, the last one to leave (or the pipeline's close) stops
   * it and retires the channel, and a subscriber that finds a retired channel makes a new one.
   */
  private static final class Channel {
    final Set<LogSubscriber> subscribers = ConcurrentHashMap.newKeySet();
    Disposable watching;
    boolean retired;

    void wakeAll() {
      subscribers.forEach(LogSubscriber::wake);
    }

    /** Stops the watch; the caller holds the channel's lock. */
    void retire() {
      retired = true;
      if (watching != null) {
        watching.dispose();
      }
    }
  }

  public PaneHub(OutputProperties properties, PaneLogWatch watch) {
    this.pageSize = properties.ssePageSize();
    this.poll = properties.ssePoll();
    this.watch = watch;
  }

  /** The commit is in the log already: wake the pipeline's subscribers, which read it later. */
  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    Channel channel = channels.get(pipeline);
    if (channel != null) {
      channel.wakeAll();
    }
  }

  /**
   * The log entries of {@code pipeline} after {@code position} that pass {@code filter}, read
   * through {@code log} as the client takes them, then each entry as it is committed, with the
   * pipeline's progress read through {@code progress}. A read every {@code
   * eventide.outputs.sse-poll} is the safety net should a wake-up be lost.
   *
   * @param sent the progress the client has been sent already, or null: the stream then opens with
   *     one
   */
  public Flux<PaneStreamItem> subscribe(
      String pipeline,
      String position,
      Predicate<PaneEvent> filter,
      PaneLogReader log,
      ProgressReader progress,
      OutputProgress sent) {
    return Flux.create(
        sink -> {
          LogSubscriber s =
              new LogSubscriber(pipeline, sink, filter, log, progress, position, sent);
          Channel channel = join(pipeline, s);
          long ms = poll.toMillis();
          Disposable polling =
              scheduler.schedulePeriodically(s::wake, ms, ms, TimeUnit.MILLISECONDS);
          sink.onRequest(n -> s.drain());
          sink.onDispose(
              () -> {
                polling.dispose();
                leave(pipeline, channel, s);
              });
        });
  }

  private Channel join(String pipeline, LogSubscriber s) {
    while (true) {
      Channel channel = channels.computeIfAbsent(pipeline, p -> new Channel());
      synchronized (channel) {
        if (!channel.retired) {
          channel.subscribers.add(s);
          if (channel.watching == null) {
            channel.watching = watch.watch(pipeline, channel::wakeAll);
          }
          return channel;
        }
      }
      // Retired between the lookup and the lock: it is out of the map or about to be.
      channels.remove(pipeline, channel);
    }
  }

  private void leave(String pipeline, Channel channel, LogSubscriber s) {
    synchronized (channel) {
      channel.subscribers.remove(s);
      if (channel.subscribers.isEmpty() && !channel.retired) {
        channel.retire();
        channels.remove(pipeline, channel);
      }
    }
  }

  public int subscriberCount(String pipeline) {
    Channel c = channels.get(pipeline);
    return c == null ? 0 : c.subscribers.size();
  }

  /** The pipelines that have live subscribers now. */
  public Set<String> watchedPipelines() {
    Set<String> out = new HashSet<>();
    channels.forEach(
        (name, c) -> {
          if (!c.subscribers.isEmpty()) {
            out.add(name);
          }
        });
    return out;
  }

  /**
   * Completes every subscriber of every pipeline, as when the service shuts down, and {@link
   * #closedAll}.
   */
  public void closeAll() {
    closedAll.tryEmitEmpty();
    channels.keySet().forEach(this::close);
  }

  /** Completes when {@link #closeAll} ends every stream: other streams end then too. */
  public Mono<Void> closedAll() {
    return closedAll.asMono();
  }

  /**
   * Takes streams again after {@link #closeAll}: a stopped context can be started again (as a
   * paused test context is), and streams opened then must not end at once.
   */
  public void open() {
    closedAll = Sinks.empty();
  }

  /**
   * Lets every subscriber of a pipeline that is about to be dropped read the log to its end first,
   * so that the panes acknowledged before a reset or delete reach the streams that were open: the
   * log goes with the drop. Completes when they all have, or after {@code timeout}, since a
   * subscriber that does not read must not hold the drop up.
   */
  public CompletableFuture<Void> finish(String pipeline, Duration timeout) {
    Channel c = channels.get(pipeline);
    if (c == null) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<?>[] finished =
        c.subscribers.stream().map(LogSubscriber::finish).toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(finished)
        .completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Forgets a deleted or reset pipeline; its subscribers are completed. */
  public void close(String pipeline) {
    Channel c = channels.remove(pipeline);
    if (c != null) {
      synchronized (c) {
        c.retire();
      }
      c.subscribers.forEach(LogSubscriber::complete);
    }
  }

  /**
   * One subscriber's read of the log. At most one read is in flight, and the next starts only once
   * the client has taken every entry of the last one; a read's page arrives on the scheduler, so a
   * long catch-up is a loop of tasks, not a deepening stack, and never runs on a committer's
   * thread.
   */
  private final class LogSubscriber {
    private final String pipeline;
    private final FluxSink<PaneStreamItem> sink;
    private final Predicate<PaneEvent> filter;
    private final PaneLogReader log;
    private final ProgressReader progress;

    /** The progress last queued for the client; null until the first. */
    private OutputProgress sent;

    /** When that was, in nanoseconds; and whether a wake for a held-back progress is queued. */
    private long sentAt;

    private boolean progressWakeQueued;

    /** Read and not yet delivered: at most a page. */
    private final ArrayDeque<PaneEvent> pending = new ArrayDeque<>();

    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private String position;
    private boolean reading;
    private boolean more = true;
    private boolean done;

    /** Set by {@link #finish}: complete once the log has been read and delivered to its end. */
    private CompletableFuture<Void> finished;

    LogSubscriber(
        String pipeline,
        FluxSink<PaneStreamItem> sink,
        Predicate<PaneEvent> filter,
        PaneLogReader log,
        ProgressReader progress,
        String position,
        OutputProgress sent) {
      this.pipeline = pipeline;
      this.sink = sink;
      this.filter = filter;
      this.log = log;
      this.progress = progress;
      this.position = position;
      this.sent = sent;
      this.sentAt = System.nanoTime();
    }

    CompletableFuture<Void> finish() {
      synchronized (this) {
        if (finished == null) {
          finished = new CompletableFuture<>();
          if (done) {
            finished.complete(null);
          }
        }
      }
      wake();
      return finished;
    }

    void wake() {
      synchronized (this) {
        more = true;
      }
      if (!wakeQueued.getAndSet(true)) {
        scheduler.schedule(
            () -> {
              wakeQueued.set(false);
              drain();
            });
      }
    }

    void drain() {
      String from;
      synchronized (this) {
        while (!done && !pending.isEmpty() && sink.requestedFromDownstream() > 0) {
          sink.next(PaneStreamItem.Entries.next(pending));
        }
        if (finished != null && !reading && !more && pending.isEmpty()) {
          // Read to the end and delivered: nothing more comes, the pipeline is being dropped.
          finished.complete(null);
        }
        if (done || reading || !more || !pending.isEmpty() || sink.requestedFromDownstream() == 0) {
          return;
        }
        reading = true;
        more = false;
        from = position;
      }
      progress
          .progress()
          .flatMap(through -> log.after(from, pageSize).map(page -> new Read(through, page)))
          .publishOn(scheduler)
          .subscribe(this::take, this::retryLater);
    }

    /**
     * A read that failed (the store briefly unavailable, a command timed out behind a large commit)
     * is tried again at the next wake or poll, from the same position: the stream stays open, with
     * its heartbeats, and loses nothing.
     */
    private synchronized void retryLater(Throwable error) {
      reading = false;
      more = true;
    }

    private void take(Read read) {
      LogPage page = read.page();
      synchronized (this) {
        reading = false;
        if (done) {
          return;
        }
        if (page.lostAfter(position)) {
          done = true;
          sink.next(new PaneStreamItem.Behind(position, page.trimmedThrough()));
          sink.complete();
          if (finished != null) {
            finished.complete(null);
          }
          return;
        }
        for (PaneEvent e : page.entries()) {
          position = e.id();
          // A progress marker only woke the stream: the progress itself is read with the log. A
          // final is for the Kafka sink: progress tells streams the same.
          if (e.kind().isStreamed() && filter.test(e)) {
            pending.add(e);
          }
        }
        if (page.entries().size() == pageSize) {
          more = true;
        } else {
          offerProgress(read.progress());
        }
      }
      drain();
    }

    /**
     * Queues the progress behind the entries read with it, if it moved, and not sooner than the
     * interval after the last one: a progress held back is sent by a wake at the interval's end.
     * The caller holds the lock.
     */
    private void offerProgress(OutputProgress now) {
      if (sent != null && now.max(sent).equals(sent)) {
        return;
      }
      long wait = PROGRESS_INTERVAL.toNanos() - (System.nanoTime() - sentAt);
      if (sent != null && wait > 0) {
        if (!progressWakeQueued) {
          progressWakeQueued = true;
          scheduler.schedule(
              () -> {
                synchronized (this) {
                  progressWakeQueued = false;
                }
                wake();
              },
              wait,
              TimeUnit.NANOSECONDS);
        }
        return;
      }
      // Never back: a resumed stream or a snapshot's opening may have told the client more of one
      // part than this read says.
      sent = sent == null ? now : sent.max(now);
      sentAt = System.nanoTime();
      pending.add(
          PaneEvent.progress(
              position, PaneRecords.progress(pipeline, sent.watermark(), sent.finalThrough())));
    }

    /** A read of the log and the progress read just before it. */
    private record Read(OutputProgress progress, LogPage page) {}

    synchronized void complete() {
      done = true;
      sink.complete();
      if (finished != null) {
        finished.complete(null);
      }
    }
  }
}
