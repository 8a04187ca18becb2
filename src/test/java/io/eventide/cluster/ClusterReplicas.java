package io.eventide.cluster;

import static org.awaitility.Awaitility.await;

import io.eventide.EventideApplication;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.state.TestRedis;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpMethod;

/**
 * Replicas of one Eventide deployment in cluster mode, each a child JVM: one Redis key prefix, one
 * Kafka namespace and consumer group (all new, so that no other test shares them), the test Redis
 * and the test broker. A replica can be killed (SIGKILL), stopped (SIGTERM, a graceful shutdown),
 * frozen (SIGSTOP) and thawed, and started again on its port.
 */
final class ClusterReplicas implements AutoCloseable {
  private final String prefix = TestRedis.newKeyPrefix();
  private final String namespace = "t" + UUID.randomUUID().toString().substring(0, 8) + ".";
  private final List<String> settings;
  private final int[] ports;
  private final Process[] processes;
  private final Path[] logs;

  ClusterReplicas(int count, String... settings) throws IOException {
    this.settings = List.of(settings);
    this.ports = new int[count];
    this.processes = new Process[count];
    this.logs = new Path[count];
    for (int i = 0; i < count; i++) {
      ports[i] = freePort();
      logs[i] = Files.createTempFile("eventide-replica-" + i + "-", ".log");
    }
  }

  /** The Kafka names' namespace of this deployment. */
  String namespace() {
    return namespace;
  }

  int count() {
    return ports.length;
  }

  /** Starts every replica and waits until each is ready (joined the group). */
  ClusterReplicas startAll() throws IOException {
    for (int i = 0; i < ports.length; i++) {
      start(i);
    }
    for (int i = 0; i < ports.length; i++) {
      awaitReady(i);
    }
    return this;
  }

  void start(int i) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                EventideApplication.class.getName(),
                "--server.port=" + ports[i],
                "--spring.kafka.bootstrap-servers=" + KafkaTestBroker.get().bootstrapServers(),
                "--eventide.kafka.enabled=true",
                "--eventide.kafka.namespace=" + namespace,
                "--eventide.cluster.enabled=true",
                "--eventide.cluster.group=" + namespace + "_cluster",
                "--eventide.cluster.partitions=6",
                "--eventide.cluster.session-timeout=6s",
                "--eventide.outputs.sse-poll=200ms"));
    command.addAll(TestRedis.storeArguments(TestRedis.url(), prefix));
    command.addAll(settings);
    processes[i] =
        new ProcessBuilder(command)
            .directory(new File(System.getProperty("user.dir")))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logs[i].toFile()))
            .start();
  }

  void awaitReady(int i) {
    LiveApi api = api(i);
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              if (!processes[i].isAlive()) {
                throw new IllegalStateException("replica " + i + " exited: " + log(i));
              }
              try {
                return api.send(HttpMethod.GET, "/actuator/health/readiness", null, null).status()
                    == 200;
              } catch (RuntimeException e) {
                return false;
              }
            });
  }

  /** SIGKILL: no shutdown hook, nothing graceful. */
  void kill(int i) throws InterruptedException {
    processes[i].destroyForcibly();
    processes[i].waitFor(30, TimeUnit.SECONDS);
  }

  /** SIGTERM: the graceful shutdown of a rolling update. */
  void stop(int i) throws InterruptedException {
    processes[i].destroy();
    if (!processes[i].waitFor(90, TimeUnit.SECONDS)) {
      throw new IllegalStateException("replica " + i + " did not stop: " + log(i));
    }
  }

  /** SIGSTOP: the process stands still, as a paused VM or a long GC would. */
  void freeze(int i) throws IOException, InterruptedException {
    signal("STOP", i);
  }

  void thaw(int i) throws IOException, InterruptedException {
    signal("CONT", i);
  }

  private void signal(String signal, int i) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-" + signal, Long.toString(processes[i].pid()))
            .inheritIO()
            .start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -" + signal + " failed");
    }
  }

  boolean alive(int i) {
    return processes[i] != null && processes[i].isAlive();
  }

  LiveApi api(int i) {
    return LiveApi.on(ports[i]);
  }

  String log(int i) {
    try {
      return Files.readString(logs[i]);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws Exception {
    for (Process p : processes) {
      if (p != null) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
    TestRedis.delete(prefix);
    for (Path log : logs) {
      Files.deleteIfExists(log);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
