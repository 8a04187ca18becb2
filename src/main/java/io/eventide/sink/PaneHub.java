package io.eventide.sink;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

/**
 * Fans panes out to live subscribers. Each subscriber has its own bounded buffer: publishing never
 * waits for anyone, and a subscriber that falls a whole buffer behind gets a final overflow notice
 * and is disconnected, so one slow dashboard can stall neither ingestion nor the others.
 */
@Component
public class PaneHub implements PaneListener {
  private final Map<String, Channel> channels = new ConcurrentHashMap<>();

  private static final class Channel {
    final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  }

  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    Channel channel = channel(pipeline);
    // Commits arrive in pane log order; the lock keeps every subscriber seeing them in that order.
    synchronized (channel) {
      for (PublishedPane p : panes) {
        PaneEvent event = p.event();
        for (Subscriber s : channel.subscribers) {
          s.offer(event);
        }
      }
    }
  }

  /**
   * The panes of {@code pipeline} that pass {@code filter}: first {@code backlog} (the logged panes
   * a resuming client missed), then live ones. The live subscription starts before the backlog is
   * read, and live panes the backlog already holds are skipped, so the handover has neither a gap
   * nor a duplicate.
   */
  public Flux<PaneStreamItem> subscribe(
      String pipeline, Predicate<PaneEvent> filter, int bufferSize, Mono<List<PaneEvent>> backlog) {
    return Flux.create(
        sink -> {
          Channel channel = channel(pipeline);
          Subscriber s = new Subscriber(sink, filter, bufferSize);
          channel.subscribers.add(s);
          sink.onRequest(n -> s.drain());
          sink.onDispose(() -> channel.subscribers.remove(s));
          backlog.subscribe(s::replay, sink::error);
        });
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

  /** Completes every subscriber of every pipeline, as when the service shuts down. */
  public void closeAll() {
    channels.keySet().forEach(this::close);
  }

  /** Forgets a deleted or reset pipeline; its subscribers are completed. */
  public void close(String pipeline) {
    Channel c = channels.remove(pipeline);
    if (c != null) {
      c.subscribers.forEach(Subscriber::complete);
    }
  }

  private Channel channel(String pipeline) {
    return channels.computeIfAbsent(pipeline, p -> new Channel());
  }

  private static final class Subscriber {
    private final FluxSink<PaneStreamItem> sink;
    private final Predicate<PaneEvent> filter;
    private final int capacity;
    private final ArrayDeque<PaneEvent> backlog = new ArrayDeque<>();
    private final ArrayDeque<PaneEvent> buffer = new ArrayDeque<>();
    private boolean replaying = true;
    private boolean overflowed;
    private boolean done;
    private String lastDelivered;

    Subscriber(FluxSink<PaneStreamItem> sink, Predicate<PaneEvent> filter, int capacity) {
      this.sink = sink;
      this.filter = filter;
      this.capacity = capacity;
    }

    /** Takes the backlog; live panes it already holds were buffered meanwhile and are dropped. */
    void replay(List<PaneEvent> logged) {
      synchronized (this) {
        for (PaneEvent e : logged) {
          if (filter.test(e)) {
            backlog.add(e);
          }
        }
        if (!logged.isEmpty()) {
          String last = logged.get(logged.size() - 1).id();
          buffer.removeIf(e -> PaneEvent.compareIds(e.id(), last) <= 0);
        }
        replaying = false;
      }
      drain();
    }

    void offer(PaneEvent p) {
      if (!filter.test(p)) {
        return;
      }
      synchronized (this) {
        if (done || overflowed) {
          return;
        }
        if (buffer.size() >= capacity) {
          overflowed = true;
        } else {
          buffer.add(p);
        }
      }
      drain();
    }

    synchronized void drain() {
      if (done || replaying) {
        return;
      }
      while (!backlog.isEmpty() && sink.requestedFromDownstream() > 0) {
        PaneEvent next = backlog.poll();
        lastDelivered = next.id();
        sink.next(next);
      }
      while (backlog.isEmpty() && !buffer.isEmpty() && sink.requestedFromDownstream() > 0) {
        PaneEvent next = buffer.poll();
        lastDelivered = next.id();
        sink.next(next);
      }
      if (overflowed
          && backlog.isEmpty()
          && buffer.isEmpty()
          && sink.requestedFromDownstream() > 0) {
        done = true;
        sink.next(new PaneStreamItem.Overflow(capacity, lastDelivered));
        sink.complete();
      }
    }

    synchronized void complete() {
      done = true;
      sink.complete();
    }
  }
}
