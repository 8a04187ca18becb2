package io.eventide.api;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.Timestamps;
import io.eventide.ops.PipelineStatus;
import io.eventide.ops.PipelineStatuses;
import io.eventide.runtime.RunningPipelines;
import io.eventide.security.Credentials;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneHub;
import java.time.Duration;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every pipeline at a glance, once as JSON or every {@code eventide.outputs.status-interval} as a
 * server-sent event stream, which counts against the stream limits like a pane stream.
 */
@RestController
class StatusController {
  /** The name status streams are counted under: no pipeline can be called that. */
  private static final String STATUS_STREAMS = "/pipelines/status";

  private final PipelineRegistry registry;
  private final PipelineStatuses statuses;
  private final OutputProperties properties;
  private final StreamPermits permits;
  private final PaneHub hub;
  private final RunningPipelines runtimes;

  StatusController(
      PipelineRegistry registry,
      PipelineStatuses statuses,
      OutputProperties properties,
      StreamPermits permits,
      PaneHub hub,
      RunningPipelines runtimes) {
    this.hub = hub;
    this.runtimes = runtimes;
    this.registry = registry;
    this.statuses = statuses;
    this.properties = properties;
    this.permits = permits;
  }

  @GetMapping(path = "/pipelines/status", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> status() {
    return current();
  }

  @GetMapping(path = "/pipelines/status", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  Flux<ServerSentEvent<String>> statusStream(ServerWebExchange exchange) {
    if (StreamPermits.headersOnly(exchange)) {
      return Flux.empty();
    }
    return exchange
        .getPrincipal()
        .map(Credentials::id)
        .defaultIfEmpty(StreamPermits.ANONYMOUS)
        .flatMapMany(
            credential -> {
              Runnable release = permits.acquire(STATUS_STREAMS, credential);
              return lasting(
                      Flux.interval(Duration.ZERO, properties.statusInterval())
                          .onBackpressureDrop()
                          .concatMap(i -> current())
                          .map(
                              json ->
                                  ServerSentEvent.<String>builder()
                                      .event("status")
                                      .data(json.toString())
                                      .build()))
                  // Shutdown waits for every open request: an overview page must not hold it.
                  .takeUntilOther(hub.closedAll())
                  .doFinally(signal -> release.run());
            });
  }

  /**
   * Ends a status stream after the idle timeout with a last {@code idle} event. It always carries
   * something, so it is never idle as a pane stream can be; but a page left open somewhere would
   * hold its connection and stream slot forever. The page reconnects, as EventSource does.
   */
  private Flux<ServerSentEvent<String>> lasting(Flux<ServerSentEvent<String>> statuses) {
    Duration timeout = properties.sseIdleTimeout();
    if (timeout.isZero() || timeout.isNegative()) {
      return statuses;
    }
    ObjectNode reason = JsonNodeFactory.instance.objectNode();
    reason.put(
        "reason",
        "a status stream ends after " + timeout + " whatever it carried; reconnect to go on");
    return statuses
        .take(timeout)
        .concatWith(
            Mono.just(
                ServerSentEvent.<String>builder().event("idle").data(reason.toString()).build()));
  }

  /**
   * How many pipelines' progress one status reads from the store at a time; one status at a time
   * per stream (concatMap), so that a slow store delays the stream rather than piling reads up.
   */
  private static final int PROGRESS_READS = 8;

  /**
   * Every pipeline's status, with how far its windows are final: read from the store as {@code
   * /results} reads it, so that every replica answers alike.
   */
  private Mono<JsonNode> current() {
    return registry
        .list()
        .collectList()
        .flatMap(
            definitions -> {
              statuses.retainOnly(definitions.stream().map(PipelineDefinition::name).toList());
              // In the registry's order, by name; flatMapSequential keeps it.
              return Flux.fromIterable(definitions)
                  .flatMapSequential(
                      d ->
                          Mono.fromFuture(() -> runtimes.progress(d))
                              .map(p -> json(statuses.of(d.name()), p.finalThrough())),
                      PROGRESS_READS)
                  .collectList();
            })
        .map(
            pipelines -> {
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.putArray("pipelines").addAll(pipelines);
              return out;
            });
  }

  private static JsonNode json(PipelineStatus s, long finalThrough) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("name", s.name());
    n.put("state", s.state().name());
    n.put("inputWatermark", Timestamps.formatWatermark(s.inputWatermark()));
    n.put("finalThrough", Timestamps.formatWatermark(finalThrough));
    if (Double.isNaN(s.lagSeconds())) {
      n.putNull("watermarkLagSeconds");
    } else {
      n.put("watermarkLagSeconds", s.lagSeconds());
    }
    n.put("eventsPerSecond", s.eventsPerSecond());
    n.put("ingested", s.ingested());
    n.put("late", s.late());
    n.put("dropped", s.dropped());
    n.put("panes", s.panes());
    n.put("openWindows", s.openWindows());
    n.put("subscribers", s.subscribers());
    return n;
  }
}
