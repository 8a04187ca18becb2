package io.eventide.state;

import static org.awaitility.Awaitility.await;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpMethod;

/**
 * The service in a child JVM of its own, on the Redis store under a key prefix, that a test can
 * kill (SIGKILL: no shutdown hook, nothing graceful), freeze (SIGSTOP) and start again on the same
 * port, as a real process would be: for crash, takeover and fencing tests.
 */
public final class ChildService implements AutoCloseable {
  public final int port;
  public final LiveApi api;
  private final List<String> arguments;
  private final Path log;
  private Process process;

  private ChildService(int port, List<String> arguments, Path log) {
    this.port = port;
    this.api = LiveApi.on(port);
    this.arguments = arguments;
    this.log = log;
  }

  /**
   * Starts the service on a free port, on {@code redisUrl} under {@code prefix}, with {@code
   * settings} ({@code --name=value}) on top, and waits until it is ready.
   */
  public static ChildService start(String redisUrl, String prefix, String... settings)
      throws Exception {
    return start(StoreUnderTest.redis(redisUrl).arguments(prefix), settings);
  }

  /**
   * Starts the service on a free port, on the store {@code store} names (see {@link
   * StoreUnderTest#arguments}), with {@code settings} on top, and waits until it is ready.
   */
  public static ChildService start(List<String> store, String... settings) throws Exception {
    ChildService child = prepare(store, settings);
    try {
      child.restart();
    } catch (Exception | AssertionError e) {
      // A child that never became ready is nobody's to close but ours.
      child.close();
      throw e;
    }
    return child;
  }

  /**
   * A service on a free port, on {@code redisUrl} under {@code prefix}, with {@code settings} on
   * top, not started yet: {@link #launch} starts it, so that several can start at once.
   */
  public static ChildService prepare(String redisUrl, String prefix, String... settings)
      throws Exception {
    return prepare(StoreUnderTest.redis(redisUrl).arguments(prefix), settings);
  }

  /** A service on the store {@code store} names, with {@code settings} on top, not started yet. */
  public static ChildService prepare(List<String> store, String... settings) throws Exception {
    List<String> arguments = new ArrayList<>(store);
    arguments.add("--eventide.runtime.shards=2");
    arguments.addAll(List.of(settings));
    return new ChildService(freePort(), arguments, Files.createTempFile("eventide-child", ".log"));
  }

  /**
   * Starts the JVM (again, after a kill) on the same port, and waits until it has started: its
   * pipelines resumed, its HTTP API up.
   */
  public void restart() throws Exception {
    launch();
    awaitStarted();
  }

  /** Starts the JVM (again, after a kill or a stop) on the same port, without waiting for it. */
  public void launch() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                EventideApplication.class.getName(),
                "--server.port=" + port));
    command.addAll(arguments);
    process =
        new ProcessBuilder(command)
            .directory(new File(System.getProperty("user.dir")))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
  }

  /** Waits until the JVM {@link #launch} started has started: its HTTP API up. */
  public void awaitStarted() {
    Process started = process;
    // Under a loaded two-core build a start has taken over 90 s.
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!started.isAlive()) {
                throw new IllegalStateException("the child JVM exited: " + Files.readString(log));
              }
              try {
                // Started and taking traffic, whether or not what it depends on (Redis, Kafka)
                // answers: a test may start it while one of them is away.
                LiveApi.Reply readiness =
                    api.send(HttpMethod.GET, "/actuator/health/readiness", null, null);
                return readiness.body() != null
                    && "UP"
                        .equals(
                            readiness.body().at("/components/readinessState/status").asString());
              } catch (RuntimeException e) {
                return false;
              }
            });
  }

  /** SIGTERM (a graceful shutdown, as in a rolling update), and waits for the process to end. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the child JVM did not stop");
    }
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL, and waits for the process to be gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGSTOP: the process stops in its tracks, its connections open, until {@link #thaw}. */
  public void freeze() throws Exception {
    StoppableRedis.signal(process, "-STOP");
  }

  /** SIGCONT: the frozen process goes on where it stopped. */
  public void thaw() throws Exception {
    StoppableRedis.signal(process, "-CONT");
  }

  /**
   * The value of a series in the service's Prometheus scrape, e.g. {@code
   * eventide_kafka_forwarder_lease{pipeline="p"}}; NaN when it has no such series.
   */
  public double metric(String series) throws Exception {
    HttpResponse<String> scrape =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    for (String line : scrape.body().split("\n")) {
      if (line.startsWith(series + " ")) {
        return Double.parseDouble(line.substring(series.length() + 1).trim());
      }
    }
    return Double.NaN;
  }

  /** What the service has logged so far, for a failure's message. */
  public String log() throws Exception {
    return Files.readString(log);
  }

  @Override
  public void close() throws Exception {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    Files.deleteIfExists(log);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
