package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the cluster tests share: a pipeline whose windows close only when the test posts the end of
 * time, a producer without event ids, and the check that what the ingest log holds is counted
 * exactly once.
 */
final class ClusterScenario {
  static final int KEYS = 24;
  static final long BASE = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final long END = BASE + 3_600_000L;

  /**
   * Windows of a minute, an early pane half a second of processing time after a window changes (so
   * that owners commit on their beats as well as on polls), the on-time pane at the end of time.
   */
  static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "afterWatermark",
                   "early": {"type": "afterProcessingTime", "delay": "PT0.5S"}},
       "accumulation": "accumulating",
       "aggregate": {"type": "sum"},
       "watermark": {"maxOutOfOrderness": "P365D"}}
      """;

  private ClusterScenario() {}

  /**
   * Posts {@code batches} batches round-robin to the replicas (a {@link Producer}) of the defined
   * {@code pipeline}; SIGKILLs replica {@code victim} a third of the way in and starts it again
   * half way; then checks, through replica {@code via}, that what the ingest log holds is counted
   * exactly once ({@link #assertExactlyOnce}).
   *
   * @return the whole pane log, read on replica {@code via}
   */
  static List<PaneStream.Received> killMidStream(
      ClusterReplicas replicas, String pipeline, int batches, int victim, int via)
      throws Exception {
    Producer producer = new Producer(replicas, pipeline, batches, 40, i -> true);
    Thread sending = producer.start();
    await().atMost(Duration.ofMinutes(3)).until(() -> producer.batch.get() >= batches / 3);
    replicas.kill(victim);
    await().atMost(Duration.ofMinutes(3)).until(() -> producer.batch.get() >= batches / 2);
    replicas.start(victim);
    replicas.awaitReady(victim);
    sending.join(TimeUnit.MINUTES.toMillis(5));
    assertThat(sending.isAlive()).isFalse();
    assertThat(producer.failure).isNull();
    return assertExactlyOnce(replicas, pipeline, producer, via);
  }

  /**
   * Posts the end of time to replica {@code via}, then checks the pipeline against the ingest log:
   * every event logged once, every acknowledged one among them, each window's final result what
   * {@code /simulate} gives over exactly the logged events, and each window's pane indexes in the
   * pane log 0, 1, 2, … with none repeated.
   *
   * @return the whole pane log, read on replica {@code via}
   */
  static List<PaneStream.Received> assertExactlyOnce(
      ClusterReplicas replicas, String pipeline, Producer producer, int via) {
    List<JsonNode> logged = IngestTopic.loggedEvents(replicas.namespace() + pipeline + ".events");
    Set<Integer> loggedNs = new HashSet<>();
    for (JsonNode e : logged) {
      assertThat(loggedNs.add(e.get("n").asInt())).as("event %s logged once", e).isTrue();
    }
    assertThat(loggedNs).containsAll(producer.acknowledged);
    System.out.printf(
        "%s: sent %d events, acknowledged %d, logged %d; batches cut off in flight %d, answered"
            + " 5xx %d%n",
        pipeline,
        producer.sent.get(),
        producer.acknowledged.size(),
        logged.size(),
        producer.uncertain.get(),
        producer.errors.get());

    LiveApi api = replicas.api(via);
    api.watermark(pipeline, "{\"watermark\": " + END + "}");
    Map<String, Double> expected = simulate(api, logged);
    await()
        .atMost(Duration.ofMinutes(2))
        .untilAsserted(() -> assertThat(finalResults(api, pipeline)).isEqualTo(expected));

    List<PaneStream.Received> log = readLog(api, pipeline, "0", expected.size());
    Map<String, Integer> lastIndex = new HashMap<>();
    for (PaneStream.Received r : log) {
      String window = window(r.data());
      int index = r.data().at("/pane/index").asInt();
      assertThat(index)
          .as("pane index of %s", window)
          .isEqualTo(lastIndex.getOrDefault(window, -1) + 1);
      lastIndex.put(window, index);
    }
    return log;
  }

  /** The pane log after {@code after}, until every one of {@code windows} windows is final. */
  static List<PaneStream.Received> readLog(
      LiveApi api, String pipeline, String after, int windows) {
    List<PaneStream.Received> log = new ArrayList<>();
    Set<String> finals = new HashSet<>();
    try (PaneStream stream = api.resume(pipeline, after)) {
      while (finals.size() < windows) {
        PaneStream.Received r = stream.next();
        if (!"pane".equals(r.type())) {
          continue;
        }
        log.add(r);
        if (r.data().get("final").asBoolean()) {
          finals.add(window(r.data()));
        }
      }
    }
    return log;
  }

  static String window(JsonNode pane) {
    return pane.get("key").asString() + "@" + pane.at("/window/start").asString();
  }

  /** Each final window's value, by window. */
  static Map<String, Double> finalResults(LiveApi api, String pipeline) {
    Map<String, Double> out = new TreeMap<>();
    for (JsonNode r : api.get("/pipelines/" + pipeline + "/results?limit=10000").get("results")) {
      if (r.get("final").asBoolean()) {
        out.put(window(r), r.get("value").asDouble());
      }
    }
    return out;
  }

  /** The final value of every window by {@code /simulate} over exactly these events. */
  static Map<String, Double> simulate(LiveApi api, List<JsonNode> events) {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.set("pipeline", JsonMapper.shared().readTree(DEFINITION));
    ArrayNode steps = request.putArray("steps");
    steps.addObject().putArray("events").addAll(events);
    steps.addObject().put("watermark", END);
    JsonNode answer =
        api.send(HttpMethod.POST, "/simulate", MediaType.APPLICATION_JSON, request.toString())
            .expect(200)
            .body();
    Map<String, Double> out = new TreeMap<>();
    for (JsonNode pane : answer.get("outputs")) {
      if (pane.get("final").asBoolean()) {
        out.put(window(pane), pane.get("value").asDouble());
      }
    }
    return out;
  }

  /**
   * Posts batches of events without ids, each to the next replica {@code targets} admits that is
   * alive. A batch refused before it was sent (connection refused) or answered "nothing logged"
   * goes to the next replica; one cut off in flight, or whose outcome is unknown, is not resent:
   * without ids that could count it twice. Any 5xx is counted.
   */
  static final class Producer implements Runnable {
    final AtomicInteger batch = new AtomicInteger();
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger uncertain = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    volatile Throwable failure;
    private final ClusterReplicas replicas;
    private final String pipeline;
    private final int batches;
    private final int batchSize;
    private final IntPredicate targets;

    Producer(
        ClusterReplicas replicas,
        String pipeline,
        int batches,
        int batchSize,
        IntPredicate targets) {
      this.replicas = replicas;
      this.pipeline = pipeline;
      this.batches = batches;
      this.batchSize = batchSize;
      this.targets = targets;
    }

    Thread start() {
      Thread t = new Thread(this, "producer-" + pipeline);
      t.setDaemon(true);
      t.start();
      return t;
    }

    @Override
    public void run() {
      try {
        for (int b = 0; b < batches; b++) {
          List<Integer> ns = new ArrayList<>();
          StringBuilder body = new StringBuilder("[");
          for (int i = 0; i < batchSize; i++) {
            int n = b * batchSize + i;
            ns.add(n);
            body.append(i > 0 ? "," : "")
                .append(
                    String.format(
                        "{\"key\":\"k%d\",\"timestamp\":%d,\"value\":%d,\"n\":%d}",
                        n % KEYS, BASE + (n * 7919L) % 600_000L, 1 + n % 5, n));
          }
          send(b, body.append(']').toString(), ns);
          sent.addAndGet(batchSize);
          batch.incrementAndGet();
        }
      } catch (Throwable t) {
        failure = t;
      }
    }

    private void send(int b, String body, List<Integer> ns) throws InterruptedException {
      for (int attempt = 0; ; attempt++) {
        int i = (b + attempt) % replicas.count();
        if (!targets.test(i) || !replicas.alive(i)) {
          continue;
        }
        try {
          LiveApi.Reply reply =
              replicas.api(i).postEvents(pipeline, MediaType.APPLICATION_JSON, body);
          if (reply.status() == 202) {
            acknowledged.addAll(ns);
            return;
          }
          errors.incrementAndGet();
          if (reply.status() != 503
              || "unknown".equals(reply.body().path("outcome").asString(null))) {
            uncertain.incrementAndGet();
            return;
          }
        } catch (RuntimeException e) {
          if (!(rootCause(e) instanceof ConnectException)) {
            uncertain.incrementAndGet();
            return;
          }
        }
        Thread.sleep(100);
      }
    }

    private static Throwable rootCause(Throwable t) {
      while (t.getCause() != null && t.getCause() != t) {
        t = t.getCause();
      }
      return t;
    }
  }
}
