package io.eventide.kafka;

import static io.eventide.ops.OtlpReceiver.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.ops.OtlpReceiver;
import io.eventide.ops.OtlpReceiver.ReceivedSpan;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Tracing in one process (docs/operations.md#tracing), exported to a real OTLP receiver: a post
 * that carries a producer's {@code traceparent} continues into an ingest span and the span of its
 * commit, in the producer's trace, for events and watermarks, to a pipeline and to a stream; the
 * panes the commit logged reach Kafka carrying the commit's span. Spans are per request and per
 * commit, never per event.
 */
class TracingTest extends KafkaIntegrationTest {
  private static final OtlpReceiver RECEIVER = OtlpReceiver.start();

  /** The events of one post that would show a span per event, were there one. */
  private static final int MANY = 200;

  private static final String SUM_EVERY_EVENT =
      """
      {"window": {"type": "fixed", "size": "10m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "sum"}%s}
      """;

  @Autowired MeterRegistry meters;

  @DynamicPropertySource
  static void tracing(DynamicPropertyRegistry registry) {
    RECEIVER.register(registry);
  }

  @AfterAll
  static void stopReceiver() {
    RECEIVER.close();
  }

  @Test
  void anEventPostContinuesTheProducersTraceIntoItsCommitAndThePanesOnKafka() {
    define("traced", SUM_EVERY_EVENT.formatted(", \"sinks\": {\"kafka\": {}}"));
    String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    String producer = "00f067aa0ba902b7";

    post(
            "/pipelines/traced/events",
            "00-" + trace + "-" + producer + "-01",
            "["
                + event("a", "12:01:00", 1, null)
                + ","
                + event("b", "12:02:00", 2, null)
                + ","
                + event("a", "12:03:00", 3, null)
                + "]")
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED);

    ReceivedSpan ingest = span(trace, named("eventide.ingest"));
    assertThat(ingest.attributes())
        .containsEntry("eventide.pipeline", "traced")
        .containsEntry("eventide.input", "events")
        .containsEntry("eventide.events", "3")
        .containsEntry("eventide.outcome", "accepted")
        .containsEntry("http.response.status_code", "202");
    // Spring's span of the HTTP request continues the producer's; the ingest span is its child.
    ReceivedSpan request = span(trace, s -> s.spanId().equals(ingest.parentId()));
    assertThat(request.parentId()).isEqualTo(producer);

    ReceivedSpan commit = span(trace, named("eventide.commit"));
    assertThat(commit.parentId()).isEqualTo(ingest.spanId());
    assertThat(commit.links()).isEmpty();
    assertThat(commit.attributes())
        .containsEntry("eventide.pipeline", "traced")
        .containsEntry("eventide.events", "3")
        // A batch asks a key's trigger once: a pane for a, one for b.
        .containsEntry("eventide.panes", "2")
        .containsEntry("eventide.outcome", "committed")
        .containsEntry("eventide.requests", "1")
        .doesNotContainKey("eventide.partition");

    List<ConsumerRecord<String, byte[]>> panes = read("eventide.traced.panes", 2);
    assertThat(panes).hasSize(2);
    assertThat(panes)
        .extracting(r -> header(r, KafkaPaneRecords.TRACEPARENT))
        .containsOnly(commit.traceparent());
  }

  @Test
  void aPostWithoutATraceparentStartsATraceOfItsOwn() {
    define("untraced", SUM_EVERY_EVENT.formatted(""));
    post("/pipelines/untraced/events", null, event("a", "12:01:00", 1, null))
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED);

    ReceivedSpan ingest =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    RECEIVER.spans().stream()
                        .filter(named("eventide.ingest"))
                        .filter(s -> "untraced".equals(s.attributes().get("eventide.pipeline")))
                        .findFirst()
                        .orElse(null),
                s -> s != null);
    ReceivedSpan commit = span(ingest.traceId(), named("eventide.commit"));
    assertThat(commit.parentId()).isEqualTo(ingest.spanId());
  }

  @Test
  void aStreamPostTracesEveryReadersCommitAndAWatermarkPostItsOwn() {
    define("reader-one", SUM_EVERY_EVENT.formatted(", \"stream\": \"traced-stream\""));
    define("reader-two", SUM_EVERY_EVENT.formatted(", \"stream\": \"traced-stream\""));
    String trace = "0af7651916cd43dd8448eb211c80319c";

    post(
            "/streams/traced-stream/events",
            "00-" + trace + "-b7ad6b7169203331-01",
            "[" + event("a", "12:01:00", 1, null) + "," + event("b", "12:01:00", 1, null) + "]")
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED);

    ReceivedSpan ingest = span(trace, named("eventide.ingest"));
    assertThat(ingest.attributes())
        .containsEntry("eventide.stream", "traced-stream")
        .containsEntry("eventide.events", "2")
        .containsEntry("eventide.outcome", "accepted");
    for (String reader : List.of("reader-one", "reader-two")) {
      ReceivedSpan commit =
          span(
              trace,
              named("eventide.commit")
                  .and(s -> reader.equals(s.attributes().get("eventide.pipeline"))));
      assertThat(commit.parentId()).isEqualTo(ingest.spanId());
      assertThat(commit.attributes()).containsEntry("eventide.events", "2");
    }

    String watermarkTrace = "5b8aa5a2d2c872e8321cf37308d69df2";
    post(
            "/pipelines/reader-one/watermark",
            "00-" + watermarkTrace + "-051581bf3cb55c13-01",
            "{\"watermark\": \"2024-05-01T13:00:00Z\"}")
        .expectStatus()
        .isOk();
    ReceivedSpan posted = span(watermarkTrace, named("eventide.ingest"));
    assertThat(posted.attributes())
        .containsEntry("eventide.pipeline", "reader-one")
        .containsEntry("eventide.input", "watermark")
        .containsEntry("eventide.outcome", "accepted")
        .doesNotContainKey("eventide.events");
    ReceivedSpan commit = span(watermarkTrace, named("eventide.commit"));
    assertThat(commit.parentId()).isEqualTo(posted.spanId());
  }

  /**
   * Spans are per request and per commit, never per event: a post of {@link #MANY} events in one
   * request is one ingest span and no more commit spans than the pipeline committed (here one,
   * applying them all), and its trace holds nothing else but the request's own span. A span per
   * event would be {@link #MANY} spans more, in the trace or, without a parent, in the spans
   * exported since the post; the ones ended before the ingest and commit spans were exported before
   * them (one exporter, its queue in the order spans end), so they would be counted here.
   */
  @Test
  void aPostOfManyEventsIsOneIngestSpanAndNoSpanPerEvent() {
    define("traced-many", SUM_EVERY_EVENT.formatted(""));
    String trace = "6e0c63257de34c92bf9efcd03927272e";
    int exportedBefore = RECEIVER.spans().size();
    List<String> events = new ArrayList<>();
    for (int i = 0; i < MANY; i++) {
      events.add(event("k" + i % 7, "12:0" + i % 10 + ":00", 1, "many-" + i));
    }
    post(
            "/pipelines/traced-many/events",
            "00-" + trace + "-00f067aa0ba902b7-01",
            "[" + String.join(",", events) + "]")
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED);

    ReceivedSpan ingest = span(trace, named("eventide.ingest"));
    assertThat(ingest.attributes()).containsEntry("eventide.events", Integer.toString(MANY));
    span(trace, named("eventide.commit"));
    List<ReceivedSpan> exported = RECEIVER.spans();
    List<ReceivedSpan> traced = exported.stream().filter(s -> s.traceId().equals(trace)).toList();
    assertThat(traced).filteredOn(named("eventide.ingest")).hasSize(1);
    List<ReceivedSpan> commitSpans = traced.stream().filter(named("eventide.commit")).toList();
    long commits =
        meters.get("eventide.state.commit").tag("pipeline", "traced-many").timer().count();
    assertThat(commitSpans).hasSizeBetween(1, (int) commits);
    assertThat(commits).isLessThanOrEqualTo(3);
    assertThat(commitSpans)
        .allSatisfy(c -> assertThat(c.parentId()).isEqualTo(ingest.spanId()))
        .extracting(c -> Integer.parseInt(c.attributes().get("eventide.events")))
        .containsExactly(MANY);
    // Besides: the request's own spans (Spring's of the HTTP request and of its security filter
    // chain), each once, a handful whatever the number of events; none of an event.
    assertThat(traced)
        .hasSizeLessThan(MANY / 10)
        .filteredOn(named("eventide.commit").negate())
        .extracting(ReceivedSpan::name)
        .doesNotHaveDuplicates()
        .contains("eventide.ingest", "http post /pipelines/{name}/events");
    assertThat(exported.size() - exportedBefore).isLessThan(MANY / 10);
  }

  @Test
  void aRefusedPostIsAnIngestSpanWithoutACommit() {
    define("refusing", SUM_EVERY_EVENT.formatted(""));
    String trace = "11111111111111111111111111111111";
    post(
            "/pipelines/refusing/events?strict=true",
            "00-" + trace + "-2222222222222222-01",
            "[{\"key\": \"a\"}]")
        .expectStatus()
        .isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
    ReceivedSpan ingest = span(trace, named("eventide.ingest"));
    assertThat(ingest.attributes())
        .containsEntry("eventide.outcome", "refused")
        .containsEntry("http.response.status_code", "422");
    // The span ends after the answer, when the commit's would have ended before it.
    assertThat(RECEIVER.spans())
        .noneMatch(named("eventide.commit").and(s -> s.traceId().equals(trace)));
  }

  /** The one span of {@code trace} that matches, once it has been exported. */
  private static ReceivedSpan span(String trace, Predicate<ReceivedSpan> which) {
    return RECEIVER.await(trace, which);
  }

  /** Posts {@code body} as JSON to {@code uri}, in the producer's span {@code traceparent}. */
  private WebTestClient.ResponseSpec post(String uri, String traceparent, String body) {
    return client
        .post()
        .uri(uri)
        .headers(
            h -> {
              if (traceparent != null) {
                h.set("traceparent", traceparent);
              }
            })
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange();
  }
}
