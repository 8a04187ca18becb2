package io.eventide.state;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * A Redis of one test's own that can be taken away and brought back on the same address with its
 * data, for outage tests: a redis-server child process writing an append-only file with every write
 * synced where the binary is installed, else a Testcontainers Redis that is paused.
 */
public final class StoppableRedis implements AutoCloseable {
  private final int port;
  private final Path dir;
  private final GenericContainer<?> container;
  private Process process;

  private final List<String> settings;

  private StoppableRedis(int port, Path dir, GenericContainer<?> container, List<String> settings) {
    this.port = port;
    this.dir = dir;
    this.container = container;
    this.settings = settings;
  }

  public static StoppableRedis start() throws Exception {
    return start(List.of());
  }

  /**
   * A Redis that keeps neither an append-only file nor RDB snapshots, as a restart of one loses
   * everything: a redis-server child process with {@code appendonly no}, or a container whose
   * snapshots are turned off.
   */
  public static StoppableRedis withoutPersistence() throws Exception {
    StoppableRedis redis = start(List.of("--appendonly", "no"));
    if (redis.container != null) {
      redis.cli("CONFIG", "SET", "save", "");
    }
    return redis;
  }

  /**
   * A replica of {@code primary}, a redis-server child process (replication tests need the binary:
   * two paused containers would not reach each other by address).
   */
  public static StoppableRedis replicaOf(StoppableRedis primary) throws Exception {
    if (primary.container != null || !onPath("redis-server")) {
      throw new IllegalStateException("A Redis replica for tests needs redis-server on the PATH.");
    }
    return start(List.of("--replicaof", "127.0.0.1", Integer.toString(primary.port)));
  }

  private static StoppableRedis start(List<String> settings) throws Exception {
    if (onPath("redis-server")) {
      StoppableRedis redis =
          new StoppableRedis(
              freePort(), Files.createTempDirectory("eventide-redis"), null, settings);
      try {
        redis.resume();
      } catch (Exception e) {
        redis.close();
        throw e;
      }
      return redis;
    }
    if (DockerClientFactory.instance().isDockerAvailable()) {
      GenericContainer<?> c = new GenericContainer<>("redis:7.4-alpine").withExposedPorts(6379);
      c.start();
      return new StoppableRedis(c.getMappedPort(6379), null, c, List.of());
    }
    throw new IllegalStateException(
        "The outage tests need redis-server on the PATH or a Docker engine; neither is here.");
  }

  public String url() {
    return "redis://127.0.0.1:" + port;
  }

  /** Takes Redis away: the process is killed (its data is on disk), the container paused. */
  public void stop() throws InterruptedException {
    if (container != null) {
      container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
      return;
    }
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * Freezes Redis as a stalled host would: its connections stay open and take commands, but it
   * answers nothing until {@link #thaw()} (SIGSTOP, or pausing the container).
   */
  public void freeze() throws Exception {
    if (container != null) {
      container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
    } else {
      signal("-STOP");
    }
  }

  /** Lets a frozen Redis go on; it then runs the commands that arrived meanwhile, in order. */
  public void thaw() throws Exception {
    if (container != null) {
      container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
    } else {
      signal("-CONT");
    }
  }

  /** Runs a command on this Redis with redis-cli (or in the container) and returns its output. */
  public String cli(String... command) throws Exception {
    List<String> line = new ArrayList<>();
    if (container != null) {
      line.addAll(List.of("redis-cli"));
      line.addAll(List.of(command));
      return container.execInContainer(line.toArray(String[]::new)).getStdout().trim();
    }
    line.addAll(List.of("redis-cli", "-p", Integer.toString(port)));
    line.addAll(List.of(command));
    Process cli = new ProcessBuilder(line).redirectErrorStream(true).start();
    String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    cli.waitFor(10, TimeUnit.SECONDS);
    return out;
  }

  private void signal(String signal) throws Exception {
    signal(process, signal);
  }

  /** Sends a child process a signal ({@code -STOP}, {@code -CONT}) with {@code kill}. */
  static void signal(Process process, String signal) throws Exception {
    Process kill =
        new ProcessBuilder("kill", signal, Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill " + signal + " failed for process " + process.pid());
    }
  }

  /**
   * Brings Redis back on the same address without its data, as a Redis without persistence comes
   * back from a restart: the process is killed and its files deleted (a container is flushed).
   */
  public void restartEmpty() throws Exception {
    if (container != null) {
      cli("FLUSHALL");
      return;
    }
    stop();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(dir) && !p.getFileName().toString().equals("redis.log")) {
          Files.delete(p);
        }
      }
    }
    resume();
  }

  /** Brings Redis back on the same address with the data it had. */
  public void resume() throws Exception {
    if (container != null) {
      container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
      return;
    }
    List<String> command = new ArrayList<>(List.of("redis-server"));
    command.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "yes",
            "--appendfsync",
            "always",
            "--dir",
            dir.toString()));
    command.addAll(settings);
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("redis.log").toFile())
            .start();
    Process started = process;
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .failFast("redis-server exited: see " + dir.resolve("redis.log"), () -> !started.isAlive())
        .until(() -> TestRedis.answersPing(URI.create(url())));
  }

  @Override
  public void close() throws Exception {
    if (container != null) {
      container.stop();
    } else if (process != null) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private static boolean onPath(String binary) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String d : path.split(File.pathSeparator)) {
      if (new File(d, binary).canExecute()) {
        return true;
      }
    }
    return false;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
