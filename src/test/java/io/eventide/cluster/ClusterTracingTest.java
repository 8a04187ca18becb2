package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaPaneRecords;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.kafka.TopicReader;
import io.eventide.ops.OtlpReceiver;
import io.eventide.ops.OtlpReceiver.ReceivedSpan;
import io.eventide.runtime.LiveApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * Tracing in cluster mode (docs/operations.md#tracing): a post taken by one replica is logged with
 * its ingest span in the records' headers, and the partitions' owners, on both replicas, commit it
 * in spans that are children of that ingest span, in the producer's trace; the panes they logged to
 * the pane log in Redis reach Kafka, sent by whichever replica forwards them, carrying their
 * commit's span. No span is made per event.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterTracingTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** One event a key, all in one post: enough that a span per event could not pass unseen. */
  private static final int KEYS = 60;

  @Test
  void theOwnersCommitsContinueTheProducersTraceAndThePanesCarryThem() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver();
        // Started inside: replicas that fail to start in time are still closed (killed).
        ClusterReplicas replicas =
            new ClusterReplicas(2, receiver.arguments().toArray(String[]::new))) {
      replicas.startAll();
      LiveApi api = replicas.api(0);
      api.define(
          "traced",
          """
          {"window": {"type": "fixed", "size": "1m"},
           "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
           "aggregate": {"type": "sum"},
           "sinks": {"kafka": {}}}
          """);
      List<String> events = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        events.add(LiveApi.event("k" + k, "2026-01-01T12:00:30Z", 1));
      }
      String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
      LiveApi.Reply answer =
          api.send(
              HttpMethod.POST,
              "/pipelines/traced/events?wait=applied",
              MediaType.APPLICATION_JSON,
              LiveApi.array(events.toArray(String[]::new)),
              h -> h.set("traceparent", "00-" + trace + "-00f067aa0ba902b7-01"));
      assertThat(answer.status()).isEqualTo(202);
      assertThat(answer.body().get("applied").asBoolean()).isTrue();

      ReceivedSpan ingest = receiver.await(trace, OtlpReceiver.named("eventide.ingest"));
      assertThat(ingest.attributes())
          .containsEntry("eventide.pipeline", "traced")
          .containsEntry("eventide.events", Integer.toString(KEYS))
          .containsEntry("eventide.outcome", "accepted");

      // Every key's event is applied by its partition's owner, in a commit that is a child of the
      // ingest span: the commits' events add up to the post's.
      List<ReceivedSpan> commits =
          await()
              .atMost(PATIENCE)
              .until(
                  () -> commits(receiver, trace),
                  found ->
                      found.stream()
                              .mapToInt(
                                  s -> Integer.parseInt(s.attributes().get("eventide.events")))
                              .sum()
                          == KEYS);
      assertThat(commits)
          .allSatisfy(
              c -> {
                assertThat(c.parentId()).isEqualTo(ingest.spanId());
                assertThat(c.attributes())
                    .containsEntry("eventide.pipeline", "traced")
                    .containsEntry("eventide.outcome", "committed")
                    .containsKey("eventide.partition");
              });

      // Spans are per request and per commit, never per event: one ingest span, no more commit
      // spans than the owners committed (a handful: one a partition the post logged to), and
      // besides them only the request's own spans (Spring's of the request, its security filter
      // chain's, the Redis commands it sent), about a dozen in all. A span per event, on the
      // replica that took the post or on an owner, would be KEYS more in the trace.
      List<ReceivedSpan> traced =
          receiver.spans().stream().filter(s -> s.traceId().equals(trace)).toList();
      assertThat(traced).filteredOn(OtlpReceiver.named("eventide.ingest")).hasSize(1);
      assertThat(commits).hasSizeLessThanOrEqualTo((int) committed(replicas)).hasSizeLessThan(KEYS);
      assertThat(traced).hasSizeLessThan(KEYS);

      Set<String> spans = new HashSet<>();
      commits.forEach(c -> spans.add(c.traceparent()));
      List<ConsumerRecord<String, byte[]>> panes =
          TopicReader.read(
              replicas.namespace() + "traced.panes", KEYS, PATIENCE, Duration.ofMillis(500));
      assertThat(panes).hasSize(KEYS);
      assertThat(panes)
          .allSatisfy(
              r ->
                  assertThat(
                          new String(
                              r.headers().lastHeader(KafkaPaneRecords.TRACEPARENT).value(),
                              StandardCharsets.UTF_8))
                      .isIn(spans));
    }
  }

  /** How many commits of the pipeline the replicas made, traced or not. */
  private static double committed(ClusterReplicas replicas) throws Exception {
    double commits = 0;
    for (int i = 0; i < replicas.count(); i++) {
      double replica =
          replicas.metric(i, "eventide_state_commit_seconds_count{pipeline=\"traced\"}");
      commits += Double.isNaN(replica) ? 0 : replica;
    }
    return commits;
  }

  private static List<ReceivedSpan> commits(OtlpReceiver receiver, String trace) {
    return receiver.spans().stream()
        .filter(s -> s.traceId().equals(trace) && s.name().equals("eventide.commit"))
        .toList();
  }
}
