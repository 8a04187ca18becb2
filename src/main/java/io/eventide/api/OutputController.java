package io.eventide.api;

import static java.util.stream.Collectors.toCollection;

import io.eventide.core.KeyedWindow;
import io.eventide.core.render.PaneRecords;
import io.eventide.definition.KeyFields;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PlainValues;
import io.eventide.definition.json.Timestamps;
import io.eventide.definition.json.Violation;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.WindowSnapshot;
import io.eventide.runtime.RunningPipelines;
import io.eventide.security.Credentials;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneHub;
import io.eventide.sink.PaneLogReader;
import io.eventide.sink.PaneStreamItem;
import io.eventide.state.OutputStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/** What dashboards read: live panes, latest results, open windows, dead letters, watermarks. */
@RestController
@RequestMapping(path = "/pipelines")
class OutputController {
  private static final int MAX_DEAD_LETTERS = 1000;
  private static final int DEFAULT_RESULTS = 1000;
  private static final int MAX_RESULTS = 10_000;
  private static final String IDLE = "idle";
  private static final MediaType EVENT_STREAM =
      new MediaType(MediaType.TEXT_EVENT_STREAM, StandardCharsets.UTF_8);

  private final PipelineRegistry registry;
  private final RunningPipelines runtimes;
  private final PaneHub hub;
  private final OutputStore store;
  private final OutputProperties properties;
  private final StreamPermits permits;

  OutputController(
      PipelineRegistry registry,
      RunningPipelines runtimes,
      PaneHub hub,
      OutputStore store,
      OutputProperties properties,
      StreamPermits permits) {
    this.registry = registry;
    this.runtimes = runtimes;
    this.hub = hub;
    this.store = store;
    this.properties = properties;
    this.permits = permits;
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
    return definition(name)
        .zipWith(credential)
        .flatMap(
            found -> {
              Runnable release = permits.acquire(name, found.getT2());
              Flux<byte[]> events =
                  stream(items(name, filter, snapshot, lastEventId, log).map(SseFrames::of))
                      .doFinally(signal -> release.run());
              response.getHeaders().setContentType(EVENT_STREAM);
              // writeWith, not writeAndFlushWith: Reactor Netty writes every event it has at hand
              // and flushes once they are written, and still flushes a lone event at once.
              return response.writeWith(events.map(response.bufferFactory()::wrap));
            });
  }

  /**
   * What a pane stream carries: after a Last-Event-ID, the log from there (a reconnecting
   * EventSource sends one, so a snapshot stream that was past its snapshot resumes without one);
   * with {@code snapshot}, every matching window's result and the log after the position they
   * reflect; else the log from its end.
   */
  private Flux<PaneStreamItem> items(
      String name,
      Predicate<PaneEvent> filter,
      boolean snapshot,
      String lastEventId,
      PaneLogReader log) {
    if (lastEventId != null) {
      return hub.subscribe(name, lastEventId, filter, log);
    }
    if (!snapshot) {
      return log.after(LogPage.START, 0)
          .flatMapMany(page -> hub.subscribe(name, page.end(), filter, log));
    }
    return store
        .snapshot(name)
        .flatMapMany(
            s -> {
              ArrayDeque<PaneEvent> windows =
                  s.windows().stream().filter(filter).collect(toCollection(ArrayDeque::new));
              int count = windows.size();
              return Flux.<PaneStreamItem>generate(
                      sink -> {
                        if (windows.isEmpty()) {
                          sink.complete();
                        } else {
                          sink.next(PaneStreamItem.Entries.next(windows));
                        }
                      })
                  .concatWith(Mono.just(new PaneStreamItem.SnapshotEnd(s.position(), count)))
                  .concatWith(hub.subscribe(name, s.position(), filter, log));
            });
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
    data.put("reason", "no pane for " + properties.sseIdleTimeout() + "; reconnect to go on");
    return SseFrames.event(IDLE, data);
  }

  /**
   * Ends a stream that has carried no pane for the idle timeout with a final {@code idle} event:
   * heartbeats keep proxies from closing a quiet stream, so without this a forgotten dashboard
   * would hold its connection and its subscriber slot forever. A client that still wants panes
   * reconnects, as EventSource does by itself.
   */
  private Flux<byte[]> idleTimeout(Flux<byte[]> events, byte[] idle) {
    Duration timeout = properties.sseIdleTimeout();
    if (timeout.isZero() || timeout.isNegative()) {
      return events;
    }
    return events.timeout(timeout, Flux.just(idle));
  }

  @GetMapping(path = "/{name}/results", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> results(
      @PathVariable String name,
      @RequestParam(required = false) String key,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) String after,
      @RequestParam(defaultValue = "" + DEFAULT_RESULTS) int limit) {
    long fromMs = from == null ? Time.MIN : time("from", from);
    long toMs = to == null ? Time.MAX : time("to", to);
    if (limit < 1 || limit > MAX_RESULTS) {
      throw new InvalidInputException(
          List.of(new Violation("limit", "must be between 1 and " + MAX_RESULTS)));
    }
    KeyedWindow cursor = after == null ? null : ResultsCursor.decode(after);
    return definition(name)
        .flatMap(d -> store.results(name, key, fromMs, toMs, cursor, limit))
        .map(
            page -> {
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.put("pipeline", name);
              out.putArray("results").addAll(page.records());
              if (page.next() != null) {
                out.put("next", ResultsCursor.encode(page.next()));
              }
              return out;
            });
  }

  @GetMapping(path = "/{name}/windows", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> windows(@PathVariable String name, @RequestParam(required = false) String key) {
    return definition(name)
        .flatMap(
            d ->
                Mono.fromFuture(() -> runtimes.explain(d, key))
                    .map(windows -> explained(name, d.event().keyFields(), windows)));
  }

  private static JsonNode explained(String name, KeyFields keys, List<WindowSnapshot> windows) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("pipeline", name);
    ArrayNode list = out.putArray("windows");
    for (WindowSnapshot w : windows) {
      ObjectNode n = list.addObject();
      n.set("key", keys.render(w.key()));
      n.set("window", PaneRecords.window(w.window()));
      n.put("elements", w.elementCount());
      n.put("pendingElements", w.pendingElements());
      n.put("nextPaneIndex", w.nextPaneIndex());
      n.put("closed", w.closed());
      n.set("contents", PlainValues.toJson(w.contents()));
      n.put("trigger", w.trigger());
      n.put("endOfWindow", Timestamps.format(w.endOfWindow()));
      n.put("gcTime", Timestamps.formatWatermark(w.gcTime()));
      n.put("watermark", Timestamps.formatWatermark(w.watermark()));
    }
    return out;
  }

  @GetMapping(path = "/{name}/dead-letters", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> deadLetters(
      @PathVariable String name, @RequestParam(defaultValue = "100") int limit) {
    if (limit < 1 || limit > MAX_DEAD_LETTERS) {
      throw new InvalidInputException(
          List.of(new Violation("limit", "must be between 1 and " + MAX_DEAD_LETTERS)));
    }
    return definition(name)
        .flatMap(d -> store.deadLetters(name, limit))
        .map(
            records -> {
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.put("pipeline", name);
              out.putArray("deadLetters").addAll(records);
              return out;
            });
  }

  @GetMapping(path = "/{name}/watermark", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> watermark(@PathVariable String name) {
    return definition(name)
        .flatMap(d -> Mono.fromFuture(() -> runtimes.watermark(d)))
        .map(WatermarkJson::toJson);
  }

  private Mono<PipelineDefinition> definition(String name) {
    return registry.find(name).switchIfEmpty(Mono.error(() -> new PipelineNotFoundException(name)));
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

  private static long time(String parameter, String text) {
    try {
      JsonNode node =
          text.chars().allMatch(c -> Character.isDigit(c) || c == '-')
              ? PlainValues.toJson(Long.parseLong(text))
              : StringNode.valueOf(text);
      return Timestamps.parse(node);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(
          List.of(new Violation(parameter, "must be an ISO-8601 time or epoch milliseconds")));
    }
  }
}
