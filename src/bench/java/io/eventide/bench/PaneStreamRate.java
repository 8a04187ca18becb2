package io.eventide.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Panes per second one SSE subscriber receives over loopback from a running service, two ways:
 * reading a full pane log from its start ({@code ?lastEventId=0}, what a reconnecting dashboard
 * does), and a burst, one watermark step firing one on-time pane for each of {@code panes} keys, to
 * a subscriber that was already live (the W1 case). Any {@code behind} event fails the run.
 *
 * <p>Usage: {@code PaneStreamRate url=http://localhost:8080 panes=100000 burst=10000 batch=5000}.
 */
public final class PaneStreamRate {
  private final HttpClient http = ServiceClient.http();
  private final String url;
  private final ServiceClient service;

  private PaneStreamRate(String url) {
    this.url = url;
    this.service = new ServiceClient(http, url);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> a = BenchTable.parse(args);
    PaneStreamRate bench = new PaneStreamRate(a.getOrDefault("url", "http://localhost:8080"));
    int panes = Integer.parseInt(a.getOrDefault("panes", "100000"));
    int batch = Integer.parseInt(a.getOrDefault("batch", "5000"));
    System.out.println("| case | panes | seconds | panes/s |");
    System.out.println("| --- | --- | --- | --- |");
    bench.fromTheLogsStart(panes, batch);
    bench.burst(Integer.parseInt(a.getOrDefault("burst", "10000")), batch);
  }

  private void fromTheLogsStart(int panes, int batch) throws Exception {
    service.put(
        "bench-log",
        "{\"window\":{\"type\":\"fixed\",\"size\":\"1m\"},\"trigger\":{\"type\":\"repeatedly\","
            + "\"trigger\":{\"type\":\"afterCount\",\"count\":1}},\"aggregate\":{\"type\":\"sum\"}}");
    send("bench-log", panes, batch);
    long started = System.nanoTime();
    receive("bench-log", "?lastEventId=0", panes, () -> {});
    report("whole log from Last-Event-ID 0", panes, System.nanoTime() - started);
  }

  private void burst(int panes, int batch) throws Exception {
    service.put(
        "bench-burst",
        "{\"window\":{\"type\":\"fixed\",\"size\":\"1m\"},\"aggregate\":{\"type\":\"sum\"}}");
    send("bench-burst", panes, batch);
    long[] fired = new long[1];
    receive(
        "bench-burst",
        "",
        panes,
        () -> {
          fired[0] = System.nanoTime();
          service.post("bench-burst/watermark", "{\"watermark\":\"2026-01-01T10:01:00Z\"}");
        });
    report(
        "one watermark step firing every key, live subscriber",
        panes,
        System.nanoTime() - fired[0]);
  }

  /** Sends one event per key, all in one minute-long window: one pane per key when it fires. */
  private void send(String pipeline, int keys, int batch) throws Exception {
    for (int from = 0; from < keys; from += batch) {
      List<String> events = new ArrayList<>();
      for (int k = from; k < Math.min(keys, from + batch); k++) {
        events.add("{\"key\":\"k" + k + "\",\"timestamp\":\"2026-01-01T10:00:30Z\",\"value\":1}");
      }
      service.post(pipeline + "/events", "[" + String.join(",", events) + "]");
    }
  }

  /** Subscribes, runs {@code then} once the stream is open, and waits for {@code panes} panes. */
  private void receive(String pipeline, String query, int panes, Action then) throws Exception {
    AtomicLong got = new AtomicLong();
    CountDownLatch all = new CountDownLatch(1);
    try (SseClient stream =
        new SseClient(
            http,
            URI.create(url + "/pipelines/" + pipeline + "/panes" + query),
            (client, e) -> {
              if ("behind".equals(e.type())) {
                throw new IllegalStateException("the stream fell behind: " + e.data());
              }
              if ("pane".equals(e.type()) && got.incrementAndGet() == panes) {
                all.countDown();
              }
            })) {
      Thread.sleep(300);
      then.run();
      if (!all.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("only " + got.get() + " of " + panes + " panes arrived");
      }
    }
  }

  private static void report(String what, int panes, long nanos) {
    double seconds = nanos / 1e9;
    System.out.printf("| %s | %d | %.2f | %,.0f |%n", what, panes, seconds, panes / seconds);
  }

  private interface Action {
    void run() throws Exception;
  }
}
