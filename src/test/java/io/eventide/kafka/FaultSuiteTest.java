package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.state.ChildService;
import io.eventide.state.ServiceOnOwnRedis;
import io.eventide.state.TestRedis;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.util.retry.Retry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The fault suite: a producer sends batches to two pipelines, one with event ids and one without,
 * while Redis is frozen past the command timeout, Redis is killed and restarted, the Kafka broker
 * is killed and restarted, or the service itself is killed (SIGKILL, in a child JVM) and started
 * again. A dashboard follows each pipeline's pane stream (resuming with Last-Event-ID when it
 * breaks, as EventSource does) and a consumer reads its Kafka sink. Nothing acknowledged may be
 * lost, nothing counted twice, and every window's pane indexes must reach both outputs once each,
 * in order; a killed service's Kafka sink may send again what it sent after its last checkpoint, so
 * there each index must arrive at least once, first in order, and an upserting consumer must end
 * with the results. Each run prints its figures.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class FaultSuiteTest {
  private static final int BATCHES = 40;
  private static final int KEYS = 10;
  private static final int FAULT_AT = 12;
  private static final Duration PATIENCE = Duration.ofSeconds(120);

  private static final List<String> SETTINGS =
      List.of(
          "--eventide.state.redis.commit-resolve-timeout=15s",
          "--eventide.kafka.enabled=true",
          "--eventide.kafka.retry-backoff=200ms",
          "--logging.level.org.apache.kafka=warn",
          "--logging.level.kafka=warn");

  /** Every batch updates every key's one window: pane i of a window counts i + 1 events. */
  static final String RUNNING_COUNT_TO_KAFKA =
      """
      {"window": {"type": "fixed", "size": "1h"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating",
       "aggregate": {"type": "count"},
       "sinks": {"kafka": {}}}
      """;

  enum Fault {
    REDIS_FROZEN,
    REDIS_KILLED,
    BROKER_KILLED,
    SERVICE_KILLED
  }

  @ParameterizedTest
  @EnumSource(Fault.class)
  void nothingAcknowledgedIsLostAndNothingIsCountedTwice(Fault fault) throws Exception {
    KafkaTestBroker broker = KafkaTestBroker.get();
    String run = fault.name().toLowerCase().replace('_', '-');
    String withIds = run + "-ids";
    String withoutIds = run + "-no-ids";
    // The producers and the end of the fault.
    ScheduledExecutorService healer = Executors.newScheduledThreadPool(3);
    String prefix = TestRedis.newKeyPrefix();
    List<String> settings = new ArrayList<>(SETTINGS);
    settings.add("--spring.kafka.bootstrap-servers=" + broker.bootstrapServers());
    // Past the command timeout is where Redis's faults bite; a service starting again on a busy
    // machine gets the redis profile's.
    settings.add("--spring.data.redis.timeout=" + (fault == Fault.SERVICE_KILLED ? "2s" : "500ms"));
    String[] arguments = settings.toArray(String[]::new);
    // A service to kill runs in a child JVM, on the shared Redis; the others on a Redis of their
    // own.
    ChildService child =
        fault == Fault.SERVICE_KILLED
            ? ChildService.start(TestRedis.url(), prefix, arguments)
            : null;
    ServiceOnOwnRedis service = child == null ? ServiceOnOwnRedis.start(arguments) : null;
    try {
      LiveApi api = child != null ? child.api : service.api;
      int port =
          child != null
              ? child.port
              : service.app.getEnvironment().getProperty("local.server.port", Integer.class);
      api.define(withIds, RUNNING_COUNT_TO_KAFKA);
      api.define(withoutIds, RUNNING_COUNT_TO_KAFKA);
      Dashboard idsDashboard = new Dashboard(port, withIds);
      Dashboard noIdsDashboard = new Dashboard(port, withoutIds);

      // Two producers at once, so that both meet the fault.
      Producer ids = new Producer(api, withIds, true);
      Producer noIds = new Producer(api, withoutIds, false);
      CompletableFuture<Void> sending =
          CompletableFuture.allOf(
              CompletableFuture.runAsync(ids, healer), CompletableFuture.runAsync(noIds, healer));
      await().atMost(PATIENCE).until(() -> ids.sent() >= FAULT_AT && noIds.sent() >= FAULT_AT);
      ScheduledFuture<?> healed = inject(fault, service, child, broker, healer);
      sending.get(3 * PATIENCE.toSeconds(), TimeUnit.SECONDS);
      healed.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

      long idsCounted = awaitTotal(api, withIds, BATCHES * KEYS);
      long noIdsCounted =
          fault == Fault.SERVICE_KILLED
              ? awaitTotal(api, withoutIds, -1)
              : awaitTotal(api, withoutIds, noIds.acknowledged);
      List<Integer> idsSse = idsDashboard.awaitFinal(idsCounted);
      List<Integer> noIdsSse = noIdsDashboard.awaitFinal(noIdsCounted);
      KafkaSink idsKafka = KafkaSink.read(withIds, idsCounted);
      KafkaSink noIdsKafka = KafkaSink.read(withoutIds, noIdsCounted);
      idsDashboard.close();
      noIdsDashboard.close();
      System.out.printf(
          "fault suite, %s: with ids sent %d (%d batches sent again), counted %d, panes on SSE"
              + " %d, on Kafka %d (%d sent again);"
              + " without ids acknowledged %d, refused (not applied) %d, outcome unknown %d,"
              + " counted %d, panes on SSE %d, on Kafka %d (%d sent again)%n",
          fault,
          BATCHES * KEYS,
          ids.resent,
          idsCounted,
          idsSse.size(),
          idsKafka.indexes().size(),
          idsKafka.repeats(),
          noIds.acknowledged,
          noIds.refused,
          noIds.unknown,
          noIdsCounted,
          noIdsSse.size(),
          noIdsKafka.indexes().size(),
          noIdsKafka.repeats());

      assertThat(idsCounted).isEqualTo(BATCHES * KEYS);
      if (fault == Fault.SERVICE_KILLED) {
        // A request the kill cut off got no answer and is not sent again: it may or may not
        // have been applied, but never twice.
        assertThat(noIdsCounted).isBetween(noIds.acknowledged, (long) BATCHES * KEYS);
      } else {
        assertThat(noIds.unknown).as("answers that could not say").isZero();
        assertThat(noIdsCounted).isEqualTo(noIds.acknowledged);
      }
      // Each list is the pane indexes of every window, window after window: 0, 1, ... n-1 each.
      assertThat(idsSse).isEqualTo(expectedIndexes(idsCounted));
      assertThat(noIdsSse).isEqualTo(expectedIndexes(noIdsCounted));
      for (String pipeline : List.of(withIds, withoutIds)) {
        KafkaSink sink = pipeline.equals(withIds) ? idsKafka : noIdsKafka;
        long counted = pipeline.equals(withIds) ? idsCounted : noIdsCounted;
        if (fault == Fault.SERVICE_KILLED) {
          assertThat(sink.firstArrivals()).isEqualTo(expectedIndexes(counted));
        } else {
          assertThat(sink.indexes()).isEqualTo(expectedIndexes(counted));
        }
        assertThat(sink.upserted()).as("upserted from Kafka").isEqualTo(results(api, pipeline));
      }
    } finally {
      healer.shutdownNow();
      if (child != null) {
        child.close();
        TestRedis.delete(prefix);
      } else {
        service.close();
      }
    }
  }

  /** Injects the fault and schedules its end; the future completes once it is over. */
  private static ScheduledFuture<?> inject(
      Fault fault,
      ServiceOnOwnRedis service,
      ChildService child,
      KafkaTestBroker broker,
      ScheduledExecutorService healer)
      throws Exception {
    return switch (fault) {
      case REDIS_FROZEN -> {
        // Past three command timeouts: commits run after their replies' deadlines.
        service.redis.freeze();
        yield healer.schedule(() -> quietly(service.redis::thaw), 1500, TimeUnit.MILLISECONDS);
      }
      case REDIS_KILLED -> {
        service.redis.stop();
        yield healer.schedule(() -> quietly(service.redis::resume), 3, TimeUnit.SECONDS);
      }
      case BROKER_KILLED -> {
        broker.stop();
        yield healer.schedule(() -> quietly(broker::start), 3, TimeUnit.SECONDS);
      }
      case SERVICE_KILLED -> {
        // Mid-stream: requests in flight are cut off unanswered, panes unforwarded.
        child.kill();
        yield healer.schedule(() -> quietly(child::restart), 1, TimeUnit.SECONDS);
      }
    };
  }

  private interface Action {
    void run() throws Exception;
  }

  private static Void quietly(Action action) {
    try {
      action.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return null;
  }

  /**
   * The indexes every window's panes must show when each of its keys counted {@code total / KEYS}.
   */
  private static List<Integer> expectedIndexes(long total) {
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      for (int i = 0; i < total / KEYS; i++) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * The sum of the pipeline's results once it is {@code expected}, or as it stands when {@code
   * expected} is negative (unknown: after the producers are done the results no longer move).
   */
  private static long awaitTotal(LiveApi api, String pipeline, long expected) {
    AtomicReference<Long> total = new AtomicReference<>(-1L);
    try {
      await()
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .until(
              () -> {
                long sum = 0;
                for (JsonNode r : api.get("/pipelines/" + pipeline + "/results").get("results")) {
                  sum += r.get("value").asLong();
                }
                total.set(sum);
                return expected < 0 || sum == expected;
              });
    } catch (RuntimeException e) {
      // The assertions report the figure that was reached.
    }
    return total.get();
  }

  /** Each key's count in the pipeline's results, one window per key. */
  private static Map<String, Long> results(LiveApi api, String pipeline) {
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode r : api.get("/pipelines/" + pipeline + "/results").get("results")) {
      out.put(r.get("key").asString(), r.get("value").asLong());
    }
    return out;
  }

  /**
   * What a consumer of the pipeline's Kafka sink read, by window (record key) in the order read.
   */
  private record KafkaSink(Map<String, List<Integer>> byWindow, Map<String, Long> upserted) {

    /** Reads the sink until {@code counted} panes have come and no more come for a while. */
    static KafkaSink read(String pipeline, long counted) {
      Map<String, List<Integer>> byWindow = new TreeMap<>();
      Map<String, Integer> best = new HashMap<>();
      Map<String, Long> upserted = new TreeMap<>();
      for (ConsumerRecord<String, byte[]> r :
          KafkaIntegrationTest.read(
              "eventide." + pipeline + ".panes", (int) counted, Duration.ofSeconds(3))) {
        JsonNode pane = JsonMapper.shared().readTree(r.value());
        int index = pane.at("/pane/index").asInt();
        byWindow.computeIfAbsent(r.key(), w -> new ArrayList<>()).add(index);
        // The consumer the changelog mode asks for: the record of highest pane index wins.
        if (best.getOrDefault(r.key(), -1) < index) {
          best.put(r.key(), index);
          upserted.put(pane.get("key").asString(), pane.get("value").asLong());
        }
      }
      return new KafkaSink(byWindow, upserted);
    }

    /** Every index read, window after window, repeats included. */
    List<Integer> indexes() {
      List<Integer> out = new ArrayList<>();
      byWindow.values().forEach(out::addAll);
      return out;
    }

    /** The indexes of each window in the order they first arrived, window after window. */
    List<Integer> firstArrivals() {
      List<Integer> out = new ArrayList<>();
      byWindow.values().forEach(seen -> out.addAll(new LinkedHashSet<>(seen)));
      return out;
    }

    long repeats() {
      return indexes().size() - firstArrivals().size();
    }
  }

  /**
   * Sends {@link #BATCHES} batches to one pipeline, one after another: batch {@code b} has one
   * event per key, all in one hour-long window.
   */
  private static final class Producer implements Runnable {
    private final LiveApi api;
    private final String pipeline;
    private final boolean ids;
    private final AtomicInteger sent = new AtomicInteger();
    volatile long acknowledged;
    volatile long refused;
    volatile long unknown;
    volatile long resent;

    Producer(LiveApi api, String pipeline, boolean ids) {
      this.api = api;
      this.pipeline = pipeline;
      this.ids = ids;
    }

    int sent() {
      return sent.get();
    }

    @Override
    public void run() {
      try {
        for (int b = 0; b < BATCHES; b++) {
          if (ids) {
            sendWithIds(b);
          } else {
            sendWithoutIds(b);
          }
          sent.incrementAndGet();
          Thread.sleep(50);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** With ids: sent again until acknowledged, as a producer that can afford to retry would. */
    private void sendWithIds(int b) throws InterruptedException {
      long until = System.nanoTime() + PATIENCE.toNanos();
      while (System.nanoTime() < until) {
        LiveApi.Reply reply;
        try {
          reply = post(pipeline, b, true);
        } catch (NotDelivered e) {
          reply = null;
        }
        if (reply != null && reply.status() == 202) {
          return;
        }
        resent++;
        Thread.sleep(200);
      }
      throw new AssertionError("batch " + b + " of " + pipeline + " was never acknowledged");
    }

    /**
     * Without ids: sent again only when nothing of it was applied, as the answer says, or as a
     * connection the service refused shows. A request cut off without an answer is not sent again.
     */
    private void sendWithoutIds(int b) throws InterruptedException {
      long until = System.nanoTime() + PATIENCE.toNanos();
      while (System.nanoTime() < until) {
        LiveApi.Reply reply;
        try {
          reply = post(pipeline, b, false);
        } catch (NotDelivered e) {
          refused += KEYS;
          Thread.sleep(200);
          continue;
        }
        if (reply != null && reply.status() == 202) {
          acknowledged += reply.body().get("accepted").asLong();
          return;
        }
        if (reply == null || reply.body().has("outcome")) {
          unknown += KEYS;
          return;
        }
        refused += KEYS;
        Thread.sleep(200);
      }
      throw new AssertionError("batch " + b + " of " + pipeline + " was never acknowledged");
    }

    /** The answer, or null when none came (the request may or may not have been applied). */
    private LiveApi.Reply post(String pipeline, int b, boolean ids) throws NotDelivered {
      List<String> events = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        String id = ids ? ",\"id\":\"b" + b + "-k" + k + "\"" : "";
        events.add(
            "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:00Z\",\"value\":1%s}"
                .formatted(k, b % 60, id));
      }
      try {
        return api.postEvents(
            pipeline, MediaType.APPLICATION_JSON, "[" + String.join(",", events) + "]");
      } catch (RuntimeException noAnswer) {
        for (Throwable t = noAnswer; t != null; t = t.getCause()) {
          if (t instanceof ConnectException) {
            throw new NotDelivered();
          }
        }
        return null;
      }
    }
  }

  /** The request never reached the service: its connection was refused. */
  private static final class NotDelivered extends Exception {
    NotDelivered() {
      super(null, null, false, false);
    }
  }

  /**
   * A dashboard on the pane stream: when the stream ends or breaks it reconnects with the last id
   * it saw, as EventSource does, and keeps every pane it receives.
   */
  private static final class Dashboard implements AutoCloseable {
    private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE =
        new ParameterizedTypeReference<>() {};

    private final Map<String, List<Integer>> byWindow = new ConcurrentHashMap<>();
    private final Map<String, Long> lastValue = new ConcurrentHashMap<>();
    // "0": from the start of the pane log, so that nothing before the subscription is missed.
    private final AtomicReference<String> lastId = new AtomicReference<>("0");
    private final Disposable subscription;

    Dashboard(int port, String pipeline) {
      WebClient web = WebClient.create("http://localhost:" + port);
      subscription =
          Flux.defer(
                  () ->
                      web.get()
                          .uri("/pipelines/{p}/panes", pipeline)
                          .accept(MediaType.TEXT_EVENT_STREAM)
                          .header("Last-Event-ID", lastId.get())
                          .retrieve()
                          .bodyToFlux(SSE))
              .repeat()
              .retryWhen(Retry.fixedDelay(Long.MAX_VALUE, Duration.ofMillis(200)))
              .subscribe(this::take);
    }

    private synchronized void take(ServerSentEvent<String> event) {
      if (event.data() == null || !"pane".equals(event.event())) {
        return;
      }
      JsonNode pane = JsonMapper.shared().readTree(event.data());
      String window = pane.get("key").asString() + "@" + pane.at("/window/start").asString();
      byWindow.computeIfAbsent(window, w -> new ArrayList<>()).add(pane.at("/pane/index").asInt());
      lastValue.put(window, pane.get("value").asLong());
      lastId.set(event.id());
    }

    /** The indexes seen, window after window, once the last values add up to {@code total}. */
    List<Integer> awaitFinal(long total) {
      try {
        await()
            .atMost(PATIENCE)
            .until(() -> lastValue.values().stream().mapToLong(Long::longValue).sum() == total);
      } catch (RuntimeException e) {
        // The assertions report what was seen.
      }
      synchronized (this) {
        List<Integer> out = new ArrayList<>();
        new TreeMap<>(byWindow).values().forEach(out::addAll);
        return out;
      }
    }

    @Override
    public void close() {
      subscription.dispose();
    }
  }
}
