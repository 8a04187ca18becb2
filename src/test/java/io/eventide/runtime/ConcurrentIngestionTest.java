package io.eventide.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;

/** Several producers at once into one pipeline: every event is counted exactly once. */
@LiveRuntimeTest
class ConcurrentIngestionTest {
  private static final int CLIENTS = 6;
  private static final int REQUESTS = 20;
  private static final int EVENTS = 25;
  private static final int KEYS = 10;

  @LocalServerPort int port;

  @Test
  void totalsAreExactWhenClientsSendAtOnce() throws Exception {
    LiveApi.on(port)
        .define(
            "crowd",
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1h\"},"
                + " \"aggregate\": {\"type\": \"sum\"}}");
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    int accepted = 0;
    int duplicates = 0;
    try {
      List<Future<int[]>> outcomes = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        outcomes.add(clients.submit(() -> produce(client)));
      }
      for (Future<int[]> f : outcomes) {
        int[] counts = f.get(2, TimeUnit.MINUTES);
        accepted += counts[0];
        duplicates += counts[1];
      }
    } finally {
      clients.shutdownNow();
    }
    assertThat(accepted).isEqualTo(CLIENTS * REQUESTS * EVENTS);
    assertThat(duplicates).isEqualTo(CLIENTS * REQUESTS);

    LiveApi api = LiveApi.on(port);
    api.watermark("crowd", "{\"watermark\": \"+inf\"}");
    Map<String, Double> sums = new HashMap<>();
    for (JsonNode r : api.get("/pipelines/crowd/results").get("results")) {
      assertThat(r.get("final").asBoolean()).isTrue();
      sums.put(r.get("key").asString(), r.get("value").asDouble());
    }
    assertThat(sums).isEqualTo(expectedSums());
  }

  /** One client's requests, each repeating its first event; returns accepted and duplicates. */
  private int[] produce(int client) {
    LiveApi api = LiveApi.over(port, HttpClient.newConnection());
    int accepted = 0;
    int duplicates = 0;
    for (int r = 0; r < REQUESTS; r++) {
      List<String> events = new ArrayList<>();
      for (int e = 0; e < EVENTS; e++) {
        events.add(event(client, r, e));
      }
      events.add(events.get(0));
      JsonNode result = api.events("crowd", "[" + String.join(",", events) + "]");
      accepted += result.get("accepted").asInt();
      duplicates += result.get("duplicates").asInt();
    }
    return new int[] {accepted, duplicates};
  }

  private static String event(int client, int request, int e) {
    return "{\"id\":\"%d-%d-%d\",\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:%02dZ\",\"value\":%d}"
        .formatted(client, request, e, key(client, e), request, e, value(client, request, e));
  }

  private static int key(int client, int e) {
    return (client + e) % KEYS;
  }

  private static int value(int client, int request, int e) {
    return client * 1000 + request * 10 + e;
  }

  private static Map<String, Double> expectedSums() {
    Map<String, Double> sums = new HashMap<>();
    for (int c = 0; c < CLIENTS; c++) {
      for (int r = 0; r < REQUESTS; r++) {
        for (int e = 0; e < EVENTS; e++) {
          sums.merge("k" + key(c, e), (double) value(c, r, e), Double::sum);
        }
      }
    }
    return sums;
  }
}
