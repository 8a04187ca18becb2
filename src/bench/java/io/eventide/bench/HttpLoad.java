package io.eventide.bench;

import io.eventide.definition.json.Timestamps;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * The load driver for a running service: a workload of docs/benchmarks.md sent as NDJSON batches
 * over several connections, each connection its own watermark source, then a drain; panes are
 * counted and summed from the SSE stream, and a wrong checksum or pane count fails the run. A probe
 * pipeline measures the latency from a watermark-moving request to its pane on SSE.
 *
 * <p>Usage: {@code HttpLoad url=http://localhost:8080 workload=W1 batch=1000 connections=4}. The
 * subscriber must stay within the pane log's retention ({@code
 * eventide.state.pane-log-max-length}): past it the stream ends with a {@code behind} event, which
 * fails the run. Replicas of one service in cluster mode: {@code url=http://a:8080,http://b:8080},
 * connection {@code c} posting to the {@code c}-th url (round robin), everything else on the first.
 *
 * <p>{@code warmups=K} first runs the same load K times into pipelines of their own (each deleted
 * after its run), printing their lines marked {@code warm-up}: a service fresh from start-up spends
 * much of a 2 000 000-event run compiling its own code, which the parse reference, the best of
 * three passes, does not.
 */
public final class HttpLoad {
  private static final Pattern VALUE = Pattern.compile("\"value\":(-?[0-9.Ee+-]+)");
  private static final Pattern WINDOW_START = Pattern.compile("\"start\":\"([^\"]+)\"");

  private final HttpClient http = ServiceClient.http();
  private final String url;
  private final List<String> ingestUrls;
  private final ServiceClient service;

  private HttpLoad(String urls) {
    this.ingestUrls = List.of(urls.split(","));
    this.url = ingestUrls.get(0);
    this.service = new ServiceClient(http, url);
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> a = BenchTable.parse(args);
    String url = a.getOrDefault("url", "http://localhost:8080");
    Workload workload = Workload.valueOf(a.getOrDefault("workload", "W1"));
    int batch = Integer.parseInt(a.getOrDefault("batch", "1000"));
    int connections = Integer.parseInt(a.getOrDefault("connections", "4"));
    int n = Integer.parseInt(a.getOrDefault("events", String.valueOf(Workload.FULL_N)));
    if (workload.checksumOfLastPanes()) {
      throw new IllegalArgumentException(
          "W2's checksum needs the last pane per window; run it in process");
    }
    int warmups = Integer.parseInt(a.getOrDefault("warmups", "0"));
    HttpLoad load = new HttpLoad(url);
    String pipeline = "bench-" + workload.name().toLowerCase();
    for (int w = 1; w <= warmups; w++) {
      System.out.print("warm-up ");
      load.run(workload, n, batch, connections, pipeline + "-warmup" + w);
      load.service.delete(pipeline + "-warmup" + w);
    }
    load.run(workload, n, batch, connections, pipeline);
  }

  private void run(Workload workload, int n, int batch, int connections, String pipeline)
      throws Exception {
    Events events = workload.generate(n);
    Expectation expected = Expectation.of(workload, events, batch);
    put(pipeline, pipelineJson(workload));
    List<List<byte[]>> bodies = render(events, batch, connections);
    double reference = parseReference(bodies, n);

    AtomicLong panes = new AtomicLong();
    DoubleAdder checksum = new DoubleAdder();
    CountDownLatch allPanes = new CountDownLatch(1);
    try (SseClient stream =
            new SseClient(
                http,
                // From the start of the pane log: a stream opened at the log's end would miss
                // the panes committed before its request was served (slow on a starved machine).
                URI.create(url + "/pipelines/" + pipeline + "/panes?lastEventId=0"),
                (client, e) -> {
                  if ("behind".equals(e.type())) {
                    throw new IllegalStateException("the pane stream fell behind: " + e.data());
                  }
                  if ("pane".equals(e.type())) {
                    checksum.add(number(VALUE, e.data()));
                    if (panes.incrementAndGet() == expected.windows()) {
                      allPanes.countDown();
                    }
                  }
                });
        Probe probe = new Probe(http, url)) {
      // Every connection is a watermark source; announcing them first keeps the first connection's
      // batches from moving the watermark past windows the others have not sent yet.
      for (int c = 0; c < connections; c++) {
        post(
            pipeline + "/watermark",
            "{\"source\":\"c" + c + "\",\"watermark\":" + (Workload.T0 - 60_000) + "}");
      }
      Thread.sleep(500);
      probe.start();
      long started = System.nanoTime();
      long accepted = send(pipeline, bodies);
      long ingested = System.nanoTime();
      if (accepted != n) {
        throw new IllegalStateException(
            (n - accepted) + " of " + n + " events were not accepted; see the dead letters");
      }
      post(pipeline + "/watermark", "{\"watermark\":\"+inf\"}");
      if (!allPanes.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException(
            "only " + panes.get() + " of " + expected.windows() + " panes arrived");
      }
      long drained = System.nanoTime();
      probe.stop();
      if (accepted != n || Math.abs(checksum.sum() - expected.checksum()) > 0.5) {
        throw new IllegalStateException(
            "wrong result: accepted "
                + accepted
                + " of "
                + n
                + ", checksum "
                + checksum.sum()
                + " expected "
                + expected.checksum());
      }
      double ingestSeconds = (ingested - started) / 1e9;
      System.out.printf(
          "| %s | %d | %d | %,.0f | %.2f | %.2f | %d | %.0f | %s | %s | %,.0f | %.1f %% |%n",
          workload,
          batch,
          connections,
          n / ingestSeconds,
          ingestSeconds,
          (drained - started) / 1e9,
          panes.get(),
          checksum.sum(),
          probe.summary(),
          percentiles(acks),
          reference,
          100 * n / ingestSeconds / reference);
    }
  }

  /**
   * The rate the HTTP rate is held to (issue 18): one core parsing the same NDJSON bodies with
   * Jackson's streaming parser, reading each event's key, timestamp and value and adding the value
   * to its key's total, and nothing else; the best of three passes, the first two warming up.
   */
  private static double parseReference(List<List<byte[]>> bodies, int n) {
    double best = 0;
    for (int pass = 0; pass < 3; pass++) {
      Map<String, double[]> totals = new java.util.HashMap<>();
      long started = System.nanoTime();
      long parsed = 0;
      for (List<byte[]> connection : bodies) {
        for (byte[] body : connection) {
          parsed += parse(body, totals);
        }
      }
      if (parsed != n) {
        throw new IllegalStateException("the reference parse read " + parsed + " of " + n);
      }
      best = Math.max(best, n / ((System.nanoTime() - started) / 1e9));
    }
    return best;
  }

  private static long parse(byte[] ndjson, Map<String, double[]> totals) {
    long events = 0;
    try (JsonParser p = JsonMapper.shared().createParser(ndjson)) {
      while (p.nextToken() == JsonToken.START_OBJECT) {
        String key = null;
        long timestamp = 0;
        double value = 0;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          p.nextToken();
          switch (name) {
            case "key" -> key = p.getString();
            case "timestamp" -> timestamp = p.getLongValue();
            case "value" -> value = p.getDoubleValue();
            default -> p.skipChildren();
          }
        }
        double[] total = totals.computeIfAbsent(key, k -> new double[2]);
        total[0] += value;
        total[1] = Math.max(total[1], timestamp);
        events++;
      }
    }
    return events;
  }

  /** p50 / p99 of the latencies, in milliseconds. */
  private static String percentiles(List<Long> nanos) {
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    if (sorted.length == 0) {
      return "-";
    }
    return String.format(
        "%.1f / %.1f ms",
        sorted[sorted.length / 2] / 1e6,
        sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1e6);
  }

  /** Each post's time from sending to its 202, in nanoseconds. */
  private final List<Long> acks = java.util.Collections.synchronizedList(new ArrayList<>());

  /** Each connection sends its share in order, as one watermark source; returns events accepted. */
  private long send(String pipeline, List<List<byte[]>> bodies) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(bodies.size());
    // Connections move through event time together, as producers reading one ordered log would:
    // one far ahead would hold the pipeline's watermark (the minimum over sources) back and leave
    // every window of the stretch between them open.
    java.util.concurrent.Phaser rounds = new java.util.concurrent.Phaser(bodies.size());
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (int c = 0; c < bodies.size(); c++) {
        List<byte[]> connection = bodies.get(c);
        String target = ingestUrls.get(c % ingestUrls.size());
        parts.add(
            pool.submit(
                () -> {
                  long accepted = 0;
                  for (byte[] body : connection) {
                    rounds.arriveAndAwaitAdvance();
                    long sent = System.nanoTime();
                    HttpResponse<String> r =
                        http.send(
                            HttpRequest.newBuilder(
                                    URI.create(target + "/pipelines/" + pipeline + "/events"))
                                .header("Content-Type", "application/x-ndjson")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 202) {
                      throw new IllegalStateException(r.statusCode() + " " + r.body());
                    }
                    acks.add(System.nanoTime() - sent);
                    accepted += (long) number(Pattern.compile("\"accepted\":(\\d+)"), r.body());
                  }
                  rounds.arriveAndDeregister();
                  return accepted;
                }));
      }
      long accepted = 0;
      for (Future<Long> f : parts) {
        accepted += f.get();
      }
      return accepted;
    } finally {
      pool.shutdown();
    }
  }

  /** NDJSON bodies per connection, rendered before the clock starts. */
  private static List<List<byte[]>> render(Events events, int batch, int connections) {
    List<List<byte[]>> out = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      List<byte[]> bodies = new ArrayList<>();
      StringBuilder body = new StringBuilder();
      int lines = 0;
      for (int i = c; i < events.size(); i += connections) {
        body.append("{\"key\":\"")
            .append(events.key(i))
            .append("\",\"timestamp\":")
            .append(events.timestamps()[i])
            .append(",\"value\":")
            .append((long) events.values()[i])
            .append(",\"source\":\"c")
            .append(c)
            .append("\"}\n");
        if (++lines == batch) {
          bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
          body.setLength(0);
          lines = 0;
        }
      }
      if (lines > 0) {
        bodies.add(body.toString().getBytes(StandardCharsets.UTF_8));
      }
      out.add(bodies);
    }
    return out;
  }

  private static String pipelineJson(Workload w) {
    String window =
        switch (w) {
          case W3 -> "{\"type\":\"session\",\"gap\":\"30s\"}";
          case W4 -> "{\"type\":\"sliding\",\"size\":\"10m\",\"period\":\"1m\"}";
          default -> "{\"type\":\"fixed\",\"size\":\"1m\"}";
        };
    // Connections are sources; a long idle timeout keeps a briefly slower one from being skipped.
    return "{\"window\":"
        + window
        + ",\"aggregate\":{\"type\":\"sum\"},\"watermark\":{\"maxOutOfOrderness\":\"5s\","
        + "\"idleTimeout\":\"PT1H\"}}";
  }

  private void put(String pipeline, String json) throws Exception {
    service.put(pipeline, json);
  }

  private void post(String path, String json) throws Exception {
    service.post(path, json);
  }

  private static double number(Pattern p, String text) {
    Matcher m = p.matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("no " + p + " in " + text);
    }
    return Double.parseDouble(m.group(1));
  }

  /**
   * Measures watermark-to-SSE latency at a fixed pane rate while the load runs: every 100 ms one
   * event into the next 1-second window of a probe pipeline, then a watermark past that window; the
   * latency is from sending the watermark to the pane's arrival.
   */
  private static final class Probe implements AutoCloseable {
    /** A day before the workload: in the past, so within any future-skew limit. */
    private static final long BASE = Workload.T0 - 86_400_000L;

    private final HttpLoad driver;
    private final Map<String, Long> sentNanos = new ConcurrentHashMap<>();
    private final List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
    private final java.util.concurrent.ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor();
    private SseClient stream;
    private int next;

    Probe(HttpClient http, String url) throws Exception {
      this.driver = new HttpLoad(url);
      driver.put(
          "bench-probe",
          "{\"window\":{\"type\":\"fixed\",\"size\":\"1s\"},\"aggregate\":{\"type\":\"count\"}}");
      stream =
          new SseClient(
              http,
              URI.create(url + "/pipelines/bench-probe/panes"),
              (client, e) -> {
                if ("pane".equals(e.type())) {
                  Matcher m = WINDOW_START.matcher(e.data());
                  if (m.find()) {
                    Long sent = sentNanos.remove(m.group(1));
                    if (sent != null) {
                      latencies.add(e.arrivedNanos() - sent);
                    }
                  }
                }
              });
    }

    void start() {
      timer.scheduleAtFixedRate(this::fire, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void fire() {
      long window = BASE + 1000L * next++;
      try {
        driver.post(
            "bench-probe/events", "{\"key\":\"p\",\"timestamp\":" + window + ",\"value\":1}");
        sentNanos.put(Timestamps.format(window), System.nanoTime());
        driver.post("bench-probe/watermark", "{\"watermark\":" + (window + 1000) + "}");
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    void stop() throws InterruptedException {
      timer.shutdown();
      timer.awaitTermination(5, TimeUnit.SECONDS);
      Thread.sleep(500);
    }

    String summary() {
      long[] sorted;
      synchronized (latencies) {
        sorted = latencies.stream().mapToLong(Long::longValue).toArray();
      }
      Arrays.sort(sorted);
      if (sorted.length == 0) {
        return "no probe panes";
      }
      return String.format(
          "%.1f ms p50, %.1f ms p99 (%d panes at 10/s)",
          sorted[sorted.length / 2] / 1e6,
          sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1e6,
          sorted.length);
    }

    @Override
    public void close() {
      timer.shutdownNow();
      stream.close();
    }
  }
}
