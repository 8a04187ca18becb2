package io.eventide.sink;

import io.eventide.engine.Pane;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * Fans panes out to live subscribers. Each subscriber has its own bounded buffer: publishing never
 * waits for anyone, and a subscriber that falls a whole buffer behind gets a final overflow notice
 * and is disconnected, so one slow dashboard can stall neither ingestion nor the others.
 */
@Component
public class PaneHub implements PaneListener {
  private final Map<String, Channel> channels = new ConcurrentHashMap<>();

  private static final class Channel {
    final AtomicLong sequence = new AtomicLong();
    final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  }

  @Override
  public void onPanes(String pipeline, List<Pane> panes) {
    Channel channel = channel(pipeline);
    // Ids are assigned under the channel's lock so that every subscriber sees them in order.
    synchronized (channel) {
      for (Pane pane : panes) {
        PublishedPane p = new PublishedPane(channel.sequence.incrementAndGet(), pipeline, pane);
        for (Subscriber s : channel.subscribers) {
          s.offer(p);
        }
      }
    }
  }

  /** Live panes of {@code pipeline} that pass {@code filter}, from now on. */
  public Flux<PaneStreamItem> subscribe(String pipeline, Predicate<Pane> filter, int bufferSize) {
    return Flux.create(
        sink -> {
          Channel channel = channel(pipeline);
          Subscriber s = new Subscriber(sink, filter, bufferSize);
          channel.subscribers.add(s);
          sink.onRequest(n -> s.drain());
          sink.onDispose(() -> channel.subscribers.remove(s));
        });
  }

  public int subscriberCount(String pipeline) {
    Channel c = channels.get(pipeline);
    return c == null ? 0 : c.subscribers.size();
  }

  /** The pipelines that have live subscribers now. */
  public java.util.Set<String> watchedPipelines() {
    java.util.Set<String> out = new java.util.HashSet<>();
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
    private final Predicate<Pane> filter;
    private final int capacity;
    private final ArrayDeque<PublishedPane> buffer = new ArrayDeque<>();
    private boolean overflowed;
    private boolean done;
    private long lastDelivered;

    Subscriber(FluxSink<PaneStreamItem> sink, Predicate<Pane> filter, int capacity) {
      this.sink = sink;
      this.filter = filter;
      this.capacity = capacity;
    }

    void offer(PublishedPane p) {
      if (!filter.test(p.pane())) {
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
      if (done) {
        return;
      }
      while (!buffer.isEmpty() && sink.requestedFromDownstream() > 0) {
        PublishedPane next = buffer.poll();
        lastDelivered = next.id();
        sink.next(next);
      }
      if (overflowed && buffer.isEmpty() && sink.requestedFromDownstream() > 0) {
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
