package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.reactivestreams.Publisher;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client of a running Eventide: what producers and dashboards would send. */
public final class LiveApi {
  public static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");
  public static final Duration TIMEOUT = Duration.ofSeconds(20);

  /** A pipeline of sessions with a one-minute gap and a running sum, updated by every batch. */
  public static final String SESSIONS =
      """
      {"window": {"type": "session", "gap": "1m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating",
       "aggregate": {"type": "sum"}}
      """;

  /** One-minute windows summing their events, with a pane for every batch that adds to one. */
  public static final String EVERY_BATCH_SUM =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "sum"}}
      """;

  private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE =
      new ParameterizedTypeReference<>() {};

  private final WebClient web;

  /** Pane streams get connections of their own, never returned to a pool for reuse. */
  private final WebClient streams;

  private LiveApi(WebClient web, WebClient streams) {
    this.web = web;
    this.streams = streams;
  }

  public static LiveApi on(int port) {
    return new LiveApi(client(port, HttpClient.create()), client(port, HttpClient.newConnection()));
  }

  /** A client on connections configured by the caller (e.g. a small receive window). */
  public static LiveApi over(int port, HttpClient http) {
    WebClient web = client(port, http);
    return new LiveApi(web, web);
  }

  private static WebClient client(int port, HttpClient http) {
    return WebClient.builder()
        .baseUrl("http://localhost:" + port)
        .clientConnector(new ReactorClientHttpConnector(http))
        .build();
  }

  /** A status, content type, JSON body (null when there is none) and the headers. */
  public record Reply(
      int status, MediaType type, JsonNode body, org.springframework.http.HttpHeaders headers) {
    public Reply expect(int expected) {
      assertThat(status).as("status of %s", body).isEqualTo(expected);
      return this;
    }

    public Reply expectProblem(int expected) {
      expect(expected);
      assertThat(type).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
      assertThat(body.get("status").asInt()).isEqualTo(expected);
      return this;
    }
  }

  public Reply put(String pipeline, String definition) {
    return send(HttpMethod.PUT, "/pipelines/" + pipeline, MediaType.APPLICATION_JSON, definition);
  }

  /** Defines a pipeline that must not exist yet. */
  public void define(String pipeline, String definition) {
    put(pipeline, definition).expect(201);
  }

  public Reply delete(String pipeline) {
    return send(HttpMethod.DELETE, "/pipelines/" + pipeline, null, null);
  }

  /** Posts events as a JSON array (or one event) and returns the 202 body. */
  public JsonNode events(String pipeline, String json) {
    return postEvents(pipeline, MediaType.APPLICATION_JSON, json).expect(202).body();
  }

  /** Posts NDJSON lines and returns the 202 body. */
  public JsonNode ndjson(String pipeline, List<String> lines) {
    return postEvents(pipeline, NDJSON, String.join("\n", lines) + "\n").expect(202).body();
  }

  /** Posts events with any content type; a Flux body goes out chunked, without Content-Length. */
  public Reply postEvents(String pipeline, MediaType type, Object body) {
    return send(HttpMethod.POST, "/pipelines/" + pipeline + "/events", type, body);
  }

  /** Posts an explicit watermark and returns the 200 body. */
  public JsonNode watermark(String pipeline, String json) {
    return send(
            HttpMethod.POST,
            "/pipelines/" + pipeline + "/watermark",
            MediaType.APPLICATION_JSON,
            json)
        .expect(200)
        .body();
  }

  /** Elements held by the pipeline's open windows, over all keys. */
  public long elements(String pipeline) {
    long n = 0;
    for (JsonNode w : get("/pipelines/" + pipeline + "/windows").get("windows")) {
      n += w.get("elements").asLong();
    }
    return n;
  }

  /** GETs a JSON document that must be there. */
  public JsonNode get(String path) {
    return send(HttpMethod.GET, path, null, null).expect(200).body();
  }

  public Reply send(HttpMethod method, String path, MediaType type, Object body) {
    return send(method, path, type, body, h -> {});
  }

  /** A request without a body, with headers of the caller's. */
  public Reply send(
      HttpMethod method,
      String path,
      java.util.function.Consumer<org.springframework.http.HttpHeaders> headers) {
    return send(method, path, null, null, headers);
  }

  /** A request with a body and headers of the caller's. */
  public Reply send(
      HttpMethod method,
      String path,
      MediaType type,
      Object body,
      java.util.function.Consumer<org.springframework.http.HttpHeaders> headers) {
    WebClient.RequestBodySpec request = web.method(method).uri(path).headers(headers);
    if (type != null) {
      request.contentType(type);
    }
    if (body instanceof Publisher<?> chunks) {
      request.body(BodyInserters.fromPublisher(Flux.from(chunks).cast(String.class), String.class));
    } else if (body != null) {
      request.bodyValue(body);
    }
    return request
        .exchangeToMono(
            response ->
                response
                    .bodyToMono(String.class)
                    .map(text -> JsonMapper.shared().readTree(text))
                    .map(json -> reply(response, json))
                    .defaultIfEmpty(reply(response, null)))
        .block(TIMEOUT);
  }

  private static Reply reply(
      org.springframework.web.reactive.function.client.ClientResponse response, JsonNode json) {
    return new Reply(
        response.statusCode().value(),
        response.headers().contentType().orElse(null),
        json,
        response.headers().asHttpHeaders());
  }

  /** Subscribes to the pane stream, requesting everything; returns once the server has it open. */
  public PaneStream panes(String pipeline, String query) {
    return panes(pipeline, query, Long.MAX_VALUE);
  }

  /**
   * Subscribes to the pane stream with a given initial demand, and returns once the opening
   * progress proved that the server has registered the subscriber (the progress uses one unit of
   * demand).
   */
  public PaneStream panes(String pipeline, String query, long demand) {
    return panes(pipeline, query, demand, null);
  }

  /** Resumes the pane stream after the pane {@code lastEventId}, as EventSource does. */
  public PaneStream resume(String pipeline, String lastEventId) {
    return resume(pipeline, "", lastEventId);
  }

  /** Resumes a filtered pane stream after the pane {@code lastEventId}. */
  public PaneStream resume(String pipeline, String query, String lastEventId) {
    return panes(pipeline, query, Long.MAX_VALUE, lastEventId);
  }

  private PaneStream panes(String pipeline, String query, long demand, String lastEventId) {
    PaneStream stream = new PaneStream(demand);
    streams
        .get()
        .uri("/pipelines/" + pipeline + "/panes" + (query.isEmpty() ? "" : "?" + query))
        .accept(MediaType.TEXT_EVENT_STREAM)
        .headers(
            h -> {
              if (lastEventId != null) {
                h.set("Last-Event-ID", lastEventId);
              }
            })
        .retrieve()
        .bodyToFlux(SSE)
        .subscribe(stream);
    stream.awaitOpening();
    return stream;
  }

  /**
   * Defines {@link #SESSIONS} as {@code pipeline}, sends two batches whose sessions merge into one
   * (the first fires before the second arrives), and checks that only the merged session is a
   * result.
   */
  public void mergeTwoSessionsAndExpectOneResult(String pipeline) {
    define(pipeline, SESSIONS);
    events(pipeline, array(event("a", "2026-01-01T10:00:00Z", 1)));
    events(pipeline, array(event("a", "2026-01-01T10:00:40Z", 2)));
    JsonNode results = get("/pipelines/" + pipeline + "/results").get("results");
    assertThat(results).hasSize(1);
    assertThat(results.get(0).at("/window/end").asString()).isEqualTo("2026-01-01T10:01:40.000Z");
    assertThat(results.get(0).get("value").asDouble()).isEqualTo(3);
  }

  /** A JSON event with the default pointers. */
  public static String event(String key, String timestamp, double value) {
    return "{\"key\":\"" + key + "\",\"timestamp\":\"" + timestamp + "\",\"value\":" + value + "}";
  }

  /** A JSON array of events. */
  public static String array(String... events) {
    return "[" + String.join(",", events) + "]";
  }
}
