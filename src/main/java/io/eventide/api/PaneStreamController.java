package io.eventide.api;

import static java.util.stream.Collectors.toCollection;

import io.eventide.core.OutputProgress;
import io.eventide.core.render.PaneRecords;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.engine.Timing;
import io.eventide.runtime.RunningPipelines;
import io.eventide.security.Credentials;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneHub;
import io.eventide.sink.PaneLogReader;
import io.eventide.sink.PaneStreamItem;
import io.eventide.sink.ProgressReader;
import io.eventide.state.OutputStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /pipelines/{name}/panes}: a pipeline's panes as they are committed, from the end of
 * its pane log, after a {@code Last-Event-ID}, or after a snapshot of every window's result.
 */
@RestController
@RequestMapping(path = "/pipelines")
class PaneStreamController {
  private static final String IDLE = "idle";

  private static final MediaType EVENT_STREAM =
      new MediaType(MediaType.TEXT_EVENT_STREAM, StandardCharsets.UTF_8);

  private final DefinedPipelines pipelines;
  private final PaneHub hub;
  private final OutputStore store;
  private final OutputProperties properties;
  private final StreamPermits permits;
  private final RunningPipelines runtimes;

  PaneStreamController(
      RunningPipelines runtimes,
      DefinedPipelines pipelines,
      PaneHub hub,
      OutputStore store,
      OutputProperties properties,
      StreamPermits permits) {
    this.pipelines = pipelines;
    this.hub = hub;
    this.store = store;
    this.properties = properties;
    this.permits = permits;
    this.runtimes = runtimes;
  }

  /**
   * A pane stream, its events written as bytes (see {@link SseFrames}) so that a burst of panes is
   * flushed once, not once per pane.
   */
  @GetMapping(path = "/{name}/panes", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  Mono<Void> panes(
      @PathVariable String name,
      @RequestParam(required = false) String key,
      @RequestParam(required = false) String timing,
      @RequestParam(name = "final", required = false) Boolean finalOnly,
      @RequestParam(defaultValue = "false") boolean snapshot,
      @RequestHeader(name = "Last-Event-ID", required = false) String lastEventIdHeader,
      @RequestParam(name = "lastEventId", required = false) String lastEventIdParameter,
      ServerWebExchange exchange) {
    Predicate<PaneEvent> filter = filter(key, timing, finalOnly);
    // The parameter is for a client that opens a new EventSource, which cannot set the header.
    String lastEventId = lastEventIdHeader != null ? lastEventIdHeader : lastEventIdParameter;
    if (lastEventId != null && !PaneEvent.isValidId(lastEventId)) {
      throw new InvalidInputException(
          List.of(
              new Violation(
                  "Last-Event-ID", "must be a pane id as sent in a pane event's id field")));
    }
    PaneLogReader log = (position, limit) -> store.panesAfter(name, position, limit);
    Mono<String> credential =
        exchange.getPrincipal().map(Credentials::id).defaultIfEmpty(StreamPermits.ANONYMOUS);
    ServerHttpResponse response = exchange.getResponse();
    return pipelines
        .named(name)
        .zipWith(credential)
        .flatMap(
            found -> {
              return resumable(name, lastEventId)
                  .then(
                      Mono.defer(
                          () -> {
                            if (StreamPermits.headersOnly(exchange)) {
                              response.getHeaders().setContentType(EVENT_STREAM);
                              return response.setComplete();
                            }
                            Runnable release = permits.acquire(name, found.getT2());
                            ProgressReader progress =
                                () -> Mono.fromFuture(() -> runtimes.progress(found.getT1()));
                            Flux<byte[]> events =
                                stream(
                                        items(
                                                name,
                                                key,
                                                filter,
                                                snapshot,
                                                lastEventId,
                                                log,
                                                progress)
                                            .map(SseFrames::of))
                                    .doFinally(signal -> release.run());
                            response.getHeaders().setContentType(EVENT_STREAM);
                            // writeWith, not writeAndFlushWith: Reactor Netty writes every event
                            // it has at hand and flushes once they are written, and still
                            // flushes a lone event at once.
                            return response.writeWith(events.map(response.bufferFactory()::wrap));
                          }));
            });
  }

  /**
   * Refuses a resume from a position after the newest entry of the log: the log was started anew (a
   * reset, or a state store that lost its data), and a stream reading on from there would stay
   * silent until the new log outgrew the position.
   */
  private Mono<Void> resumable(String name, String lastEventId) {
    if (lastEventId == null) {
      return Mono.empty();
    }
    return store
        .panesAfter(name, lastEventId, 0)
        .flatMap(
            page ->
                PaneEvent.compareIds(lastEventId, page.end()) > 0
                    ? Mono.error(
                        new InvalidInputException(
                            List.of(
                                new Violation(
                                    "Last-Event-ID",
                                    "is after the newest entry of the pipeline's pane log ("
                                        + page.end()
                                        + "): the log was started anew (a reset, or a state store"
                                        + " that lost its data); start over with snapshot=true"))))
                    : Mono.<Void>empty());
  }

  /**
   * What a pane stream carries: after a Last-Event-ID, the log from there (a reconnecting
   * EventSource sends one, so a snapshot stream that was past its snapshot resumes without one);
   * with {@code snapshot}, every matching window's result, read in pages, and the log after the
   * position the first page reflects; else the log from its end. Each opens with the pipeline's
   * progress: a snapshot's results are final as of the progress read before them, which the stream
   * sends first.
   */
  private Flux<PaneStreamItem> items(
      String name,
      String key,
      Predicate<PaneEvent> filter,
      boolean snapshot,
      String lastEventId,
      PaneLogReader log,
      ProgressReader progress) {
    if (lastEventId != null) {
      return hub.subscribe(name, lastEventId, filter, log, progress, null);
    }
    if (!snapshot) {
      return log.after(LogPage.START, 0)
          .flatMapMany(page -> hub.subscribe(name, page.end(), filter, log, progress, null));
    }
    return progress
        .progress()
        .flatMapMany(
            through ->
                store
                    .snapshot(name, key, null, properties.ssePageSize())
                    .flatMapMany(
                        first -> snapshot(name, key, first, through, filter, log, progress)));
  }

  /**
   * A snapshot from its first page on, each page read only once the one before has been sent (a
   * stream holds one page), then the log from the first page's position, which every item carries.
   * A window that changed while later pages were read shows its newer result; the log's entries
   * that its page already reflects are skipped ({@link SnapshotPages}).
   */
  private Flux<PaneStreamItem> snapshot(
      String name,
      String key,
      OutputStore.Snapshot first,
      OutputProgress through,
      Predicate<PaneEvent> filter,
      PaneLogReader log,
      ProgressReader progress) {
    String position = first.position();
    AtomicInteger count = new AtomicInteger();
    SnapshotPages pages = new SnapshotPages(store.windowOrder());
    PaneStreamItem opening =
        new PaneStreamItem.Entries(
            List.of(
                PaneEvent.progress(
                    position,
                    PaneRecords.progress(name, through.watermark(), through.finalThrough()))));
    Flux<PaneStreamItem> windows =
        Mono.just(first)
            .expand(
                page ->
                    page.next() == null
                        ? Mono.empty()
                        : store.snapshot(name, key, page.next(), properties.ssePageSize()))
            // No prefetch: the next page is asked for once this one's windows are sent.
            .concatMap(
                page -> {
                  ArrayDeque<PaneEvent> matching =
                      page.windows().stream()
                          .map(item -> Finality.asOf(item.asOf(position), through.finalThrough()))
                          .filter(filter)
                          .collect(toCollection(ArrayDeque::new));
                  count.addAndGet(matching.size());
                  pages.read(page);
                  return Flux.<PaneStreamItem>generate(
                      sink -> {
                        if (matching.isEmpty()) {
                          sink.complete();
                        } else {
                          sink.next(PaneStreamItem.Entries.next(matching));
                        }
                      });
                },
                0);
    return windows
        .startWith(opening)
        .concatWith(Mono.fromSupplier(() -> new PaneStreamItem.SnapshotEnd(position, count.get())))
        .concatWith(
            hub.subscribe(
                name, position, filter.and(e -> !pages.reflects(e)), log, progress, through));
  }

  /** An event stream with heartbeats and the idle timeout, ending when {@code events} ends. */
  private Flux<byte[]> stream(Flux<byte[]> events) {
    // A heartbeat the client is not ready for is dropped: left queued, Flux.interval would fail
    // the stream once merge's small prefetch of ticks filled up.
    Flux<byte[]> heartbeats =
        Flux.interval(properties.sseHeartbeat(), properties.sseHeartbeat())
            .onBackpressureDrop()
            .map(i -> SseFrames.HEARTBEAT);
    byte[] idle = idleEvent();
    return Flux.merge(idleTimeout(events, idle).materialize(), heartbeats.map(Signal::next))
        .<byte[]>dematerialize()
        // A heartbeat may race the idle event through the merge; the idle event is last.
        .takeUntil(event -> event == idle);
  }

  private byte[] idleEvent() {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.put(
        "reason",
        "no pane and no progress for " + properties.sseIdleTimeout() + "; reconnect to go on");
    return SseFrames.event(IDLE, data);
  }

  /**
   * Ends a stream that has carried no pane and no progress for the idle timeout with a final {@code
   * idle} event: heartbeats keep proxies from closing a quiet stream, so without this a forgotten
   * dashboard would hold its connection and its subscriber slot forever. A client that still wants
   * panes reconnects, as EventSource does by itself.
   */
  private Flux<byte[]> idleTimeout(Flux<byte[]> events, byte[] idle) {
    Duration timeout = properties.sseIdleTimeout();
    if (timeout.isZero() || timeout.isNegative()) {
      return events;
    }
    return events.timeout(timeout, Flux.just(idle));
  }

  private static Predicate<PaneEvent> filter(String key, String timing, Boolean finalOnly) {
    Timing t = null;
    if (timing != null) {
      try {
        t = Timing.valueOf(timing.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException(
            List.of(new Violation("timing", "must be one of EARLY, ON_TIME, LATE")));
      }
    }
    Timing wanted = t;
    // A merge is about the key's windows, not a pane: only the key filter applies to it.
    return p ->
        (key == null || key.equals(p.key()))
            && (p.kind() == LogEntryKind.MERGE
                || ((wanted == null || p.timing() == wanted)
                    && (finalOnly == null || !finalOnly || p.last())));
  }
}
