package io.eventide.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Produce-to-SSE latency: from the moment a producer has a POST's 202 to the moment its pane
 * arrives on a pane stream, with the producer on the stream's replica and on another replica of the
 * same Redis. Each post is one event of a key of its own in a pipeline that fires a pane per event,
 * so every pane names the post it came from. A negative figure is a pane that arrived before its
 * producer had the 202 (the stream and the answer race). Posts go one at a time, {@code interval}
 * ms apart, after {@code warmup} posts that are not counted; a missing pane fails the run.
 *
 * <p>Usage: {@code ProduceToSse url=http://localhost:8080 other=http://localhost:8081 posts=300
 * interval=20 warmup=50} ({@code other} optional: without it only the same-replica case runs).
 */
public final class ProduceToSse {
  private static final Pattern KEY = Pattern.compile("\"key\":\"([^\"]*)\"");
  private static final String PIPELINE = "bench-latency";

  private final HttpClient http = ServiceClient.http();
  private final Map<String, Long> arrivals = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    Map<String, String> a = BenchTable.parse(args);
    String url = a.getOrDefault("url", "http://localhost:8080");
    int posts = Integer.parseInt(a.getOrDefault("posts", "300"));
    int interval = Integer.parseInt(a.getOrDefault("interval", "20"));
    int warmup = Integer.parseInt(a.getOrDefault("warmup", "50"));
    new ProduceToSse().run(url, a.get("other"), posts, interval, warmup);
  }

  private void run(String url, String other, int posts, int interval, int warmup) throws Exception {
    new ServiceClient(http, url)
        .put(
            PIPELINE,
            "{\"window\":{\"type\":\"fixed\",\"size\":\"1h\"},\"trigger\":{\"type\":\"repeatedly\","
                + "\"trigger\":{\"type\":\"afterCount\",\"count\":1}},\"aggregate\":{\"type\":\"count\"}}");
    try (SseClient stream =
        new SseClient(
            http,
            URI.create(url + "/pipelines/" + PIPELINE + "/panes"),
            (client, e) -> {
              if ("pane".equals(e.type())) {
                Matcher m = KEY.matcher(e.data());
                if (m.find()) {
                  arrivals.put(m.group(1), e.arrivedNanos());
                }
              }
            })) {
      Thread.sleep(500);
      System.out.println("| producer | posts | p50 ms | p99 ms | max ms |");
      System.out.println("| --- | --- | --- | --- | --- |");
      measure("same replica", "s", new ServiceClient(http, url), posts, interval, warmup);
      if (other != null) {
        measure("other replica", "o", new ServiceClient(http, other), posts, interval, warmup);
      }
    }
  }

  private void measure(
      String what, String tag, ServiceClient producer, int posts, int interval, int warmup)
      throws Exception {
    long[] acked = new long[warmup + posts];
    for (int i = 0; i < acked.length; i++) {
      producer.post(
          PIPELINE + "/events",
          "{\"key\":\"" + tag + i + "\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}");
      acked[i] = System.nanoTime();
      Thread.sleep(interval);
    }
    long[] latencies = new long[posts];
    long deadline = System.nanoTime() + 120_000_000_000L;
    for (int i = 0; i < posts; i++) {
      Long arrived;
      while ((arrived = arrivals.get(tag + (warmup + i))) == null) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the pane of post " + tag + (warmup + i) + " never came");
        }
        Thread.sleep(10);
      }
      latencies[i] = arrived - acked[warmup + i];
    }
    Arrays.sort(latencies);
    System.out.printf(
        "| %s | %d | %.1f | %.1f | %.1f |%n",
        what,
        posts,
        latencies[posts / 2] / 1e6,
        latencies[Math.min(posts - 1, (int) (posts * 0.99))] / 1e6,
        latencies[posts - 1] / 1e6);
  }
}
