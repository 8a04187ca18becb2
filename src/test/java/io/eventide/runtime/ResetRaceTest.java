package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;

/**
 * A pipeline reset while producers send to it: every acknowledged event is counted in exactly one
 * of the two generations, no request is refused, and the old generation's pane stream carries only
 * its own panes.
 */
@LiveRuntimeTest
class ResetRaceTest {
  private static final int CLIENTS = 4;
  private static final int REQUESTS = 30;
  private static final int EVENTS = 20;
  private static final int ROUNDS = 3;

  /** One key, so that the accumulating pane of the one window is the generation's total. */
  private static final String DEFINITION =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1h\"},"
          + " \"trigger\": {\"type\": \"repeatedly\","
          + " \"trigger\": {\"type\": \"afterCount\", \"count\": 1}},"
          + " \"accumulation\": \"accumulating\", \"aggregate\": {\"type\": \"count\"}}";

  @LocalServerPort int port;

  @Test
  void everyAcknowledgedEventCountsInExactlyOneGeneration() throws Exception {
    LiveApi api = LiveApi.on(port);
    api.put("racing", DEFINITION).expect(201);
    for (int round = 0; round < ROUNDS; round++) {
      PaneStream old = api.panes("racing", "");
      AtomicInteger acknowledged = new AtomicInteger();
      AtomicInteger sent = new AtomicInteger();
      CountDownLatch halfway = new CountDownLatch(CLIENTS * REQUESTS / 2);
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      List<Future<?>> producers = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        producers.add(
            clients.submit(
                () -> {
                  LiveApi own = LiveApi.over(port, HttpClient.newConnection());
                  for (int r = 0; r < REQUESTS; r++) {
                    LiveApi.Reply reply =
                        own.postEvents("racing", MediaType.APPLICATION_JSON, batch());
                    sent.incrementAndGet();
                    reply.expect(202);
                    acknowledged.addAndGet(reply.body().get("accepted").asInt());
                    halfway.countDown();
                  }
                }));
      }
      halfway.await();
      api.put("racing?reset=true", DEFINITION).expect(200);
      for (Future<?> p : producers) {
        p.get();
      }
      clients.shutdown();
      assertThat(sent.get()).isEqualTo(CLIENTS * REQUESTS);

      old.awaitEnd();
      long oldTotal = total(old.drained());
      JsonNode results = api.get("/pipelines/racing/results").get("results");
      long newTotal = results.isEmpty() ? 0 : results.get(0).get("value").asLong();
      assertThat(oldTotal + newTotal)
          .as("round %d: old %d + new %d", round, oldTotal, newTotal)
          .isEqualTo(acknowledged.get())
          .isEqualTo(CLIENTS * REQUESTS * EVENTS);

      api.put("racing?reset=true", DEFINITION).expect(200);
    }
  }

  /**
   * The last total of a generation's stream, checking that its pane indexes run 0, 1, 2, ... with
   * totals that only grow: a pane of the next generation would start again at 0.
   */
  private static long total(List<PaneStream.Received> received) {
    long total = 0;
    int index = 0;
    for (PaneStream.Received r : received) {
      if (!"pane".equals(r.type())) {
        continue;
      }
      assertThat(r.data().at("/pane/index").asInt()).isEqualTo(index++);
      long value = r.data().get("value").asLong();
      assertThat(value).isGreaterThan(total);
      total = value;
    }
    return total;
  }

  private static String batch() {
    List<String> events = new ArrayList<>(EVENTS);
    for (int e = 0; e < EVENTS; e++) {
      events.add(LiveApi.event("k", "2026-01-01T10:00:00Z", 1));
    }
    return LiveApi.array(events.toArray(String[]::new));
  }
}
