package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.state.ServiceOnOwnRedis;
import java.time.Duration;
import java.util.ArrayList;
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
 * while Redis is frozen past the command timeout, Redis is killed and restarted, or the Kafka
 * broker is killed and restarted. A dashboard follows each pipeline's pane stream (resuming with
 * Last-Event-ID when it breaks, as EventSource does) and a consumer reads its Kafka sink. Nothing
 * acknowledged may be lost, nothing counted twice, and every window's pane indexes must reach both
 * outputs once each, in order. Each run prints its figures.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class FaultSuiteTest {
  private static final int BATCHES = 40;
  private static final int KEYS = 10;
  private static final int FAULT_AT = 12;
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  /** Every batch updates every key's one window: pane i of a window counts i + 1 events. */
  private static final String RUNNING_COUNT_TO_KAFKA =
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
    BROKER_KILLED
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
    try (ServiceOnOwnRedis service =
        ServiceOnOwnRedis.start(
            "--spring.data.redis.timeout=500ms",
            "--eventide.state.redis.commit-resolve-timeout=15s",
            "--eventide.kafka.enabled=true",
            "--eventide.kafka.retry-backoff=200ms",
            "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
            "--logging.level.org.apache.kafka=warn",
            "--logging.level.kafka=warn")) {
      LiveApi api = service.api;
      api.define(withIds, RUNNING_COUNT_TO_KAFKA);
      api.define(withoutIds, RUNNING_COUNT_TO_KAFKA);
      int port = service.app.getEnvironment().getProperty("local.server.port", Integer.class);
      Dashboard idsDashboard = new Dashboard(port, withIds);
      Dashboard noIdsDashboard = new Dashboard(port, withoutIds);

      // Two producers at once, so that both meet the fault.
      Producer ids = new Producer(api, withIds, true);
      Producer noIds = new Producer(api, withoutIds, false);
      CompletableFuture<Void> sending =
          CompletableFuture.allOf(
              CompletableFuture.runAsync(ids, healer), CompletableFuture.runAsync(noIds, healer));
      await().atMost(PATIENCE).until(() -> ids.sent() >= FAULT_AT && noIds.sent() >= FAULT_AT);
      ScheduledFuture<?> healed = inject(fault, service, broker, healer);
      sending.get(3 * PATIENCE.toSeconds(), TimeUnit.SECONDS);
      healed.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

      long idsCounted = awaitTotal(api, withIds, BATCHES * KEYS);
      long noIdsCounted = awaitTotal(api, withoutIds, noIds.acknowledged);
      List<Integer> idsSse = idsDashboard.awaitFinal(idsCounted);
      List<Integer> noIdsSse = noIdsDashboard.awaitFinal(noIdsCounted);
      List<Integer> idsKafka = kafkaIndexes(withIds, idsCounted);
      List<Integer> noIdsKafka = kafkaIndexes(withoutIds, noIdsCounted);
      idsDashboard.close();
      noIdsDashboard.close();
      System.out.printf(
          "fault suite, %s: with ids sent %d (%d batches sent again), counted %d, panes on SSE"
              + " %d, on Kafka %d;"
              + " without ids acknowledged %d, refused (not applied) %d, outcome unknown %d,"
              + " counted %d, panes on SSE %d, on Kafka %d%n",
          fault,
          BATCHES * KEYS,
          ids.resent,
          idsCounted,
          idsSse.size(),
          idsKafka.size(),
          noIds.acknowledged,
          noIds.refused,
          noIds.unknown,
          noIdsCounted,
          noIdsSse.size(),
          noIdsKafka.size());

      assertThat(idsCounted).isEqualTo(BATCHES * KEYS);
      assertThat(noIds.unknown).as("answers that could not say").isZero();
      assertThat(noIdsCounted).isEqualTo(noIds.acknowledged);
      // Each list is the pane indexes of every window, window after window: 0, 1, ... n-1 each.
      assertThat(idsSse).isEqualTo(expectedIndexes(idsCounted));
      assertThat(idsKafka).isEqualTo(expectedIndexes(idsCounted));
      assertThat(noIdsSse).isEqualTo(expectedIndexes(noIdsCounted));
      assertThat(noIdsKafka).isEqualTo(expectedIndexes(noIdsCounted));
    } finally {
      healer.shutdownNow();
    }
  }

  /** Injects the fault and schedules its end; the future completes once it is over. */
  private static ScheduledFuture<?> inject(
      Fault fault,
      ServiceOnOwnRedis service,
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
                return sum == expected;
              });
    } catch (RuntimeException e) {
      // The assertions report the figure that was reached.
    }
    return total.get();
  }

  /** The pane indexes of the pipeline's Kafka sink, window after window, in the order read. */
  private static List<Integer> kafkaIndexes(String pipeline, long counted) {
    List<ConsumerRecord<String, byte[]>> records =
        KafkaIntegrationTest.read(
            "eventide." + pipeline + ".panes", (int) counted, Duration.ofSeconds(2));
    Map<String, List<Integer>> byWindow = new TreeMap<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      JsonNode pane = JsonMapper.shared().readTree(r.value());
      byWindow.computeIfAbsent(r.key(), w -> new ArrayList<>()).add(pane.at("/pane/index").asInt());
    }
    List<Integer> out = new ArrayList<>();
    byWindow.values().forEach(out::addAll);
    return out;
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
        LiveApi.Reply reply = post(pipeline, b, true);
        if (reply != null && reply.status() == 202) {
          return;
        }
        resent++;
        Thread.sleep(200);
      }
      throw new AssertionError("batch " + b + " of " + pipeline + " was never acknowledged");
    }

    /** Without ids: sent again only when the answer says nothing of it was applied. */
    private void sendWithoutIds(int b) throws InterruptedException {
      long until = System.nanoTime() + PATIENCE.toNanos();
      while (System.nanoTime() < until) {
        LiveApi.Reply reply = post(pipeline, b, false);
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

    private LiveApi.Reply post(String pipeline, int b, boolean ids) {
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
        return null;
      }
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
