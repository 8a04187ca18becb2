package io.eventide.state;

import io.eventide.core.IngestBounds;
import io.eventide.sink.OutputProperties;
import io.eventide.state.redis.RedisStateStore;
import io.eventide.state.redis.RedisStoreMarker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

/**
 * The real Redis the tests use: Testcontainers' Redis where a Docker engine answers, else the one
 * named by {@code spring.data.redis.url} (system property or SPRING_DATA_REDIS_URL), else
 * 127.0.0.1:6379, which {@code .ci/run} starts. With none of them the tests fail, saying so.
 *
 * <p>That Redis keeps what earlier tests and earlier runs left, and an Eventide on the Redis store
 * resumes every pipeline it finds under its key prefix at start-up. So every test that uses it (a
 * Spring context, a child JVM, a bare store) takes a prefix of its own from {@link #newKeyPrefix},
 * counts keys only under it, and deletes them with {@link #delete} when it is done.
 */
public final class TestRedis {
  private static final String IMAGE = "redis:7.4-alpine";

  /**
   * A pipeline whose results are running counts per key and hour, updated by every batch: the sum
   * of its results is the number of events it applied.
   */
  public static final String RUNNING_COUNT =
      """
      {"window": {"type": "fixed", "size": "1h"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating",
       "aggregate": {"type": "count"}}
      """;

  private static String url;

  private TestRedis() {}

  /** A key prefix that no other test, earlier run or concurrent build uses. */
  public static String newKeyPrefix() {
    return "test-" + UUID.randomUUID();
  }

  /** The command-line arguments that put an Eventide on the Redis store at {@code url}. */
  public static List<String> storeArguments(String url, String prefix) {
    return List.of(
        "--spring.data.redis.url=" + url,
        "--eventide.state.store=redis",
        "--eventide.state.key-prefix=" + prefix);
  }

  /** The state settings of a Redis store built by hand under {@code prefix}. */
  /** A Redis store built by hand under {@code prefix}, with the default bounds and limits. */
  public static RedisStateStore store(LettuceConnectionFactory factory, String prefix) {
    return new RedisStateStore(
        factory,
        outputProperties(),
        stateProperties(prefix),
        IngestBounds.DEFAULT,
        marker(factory, prefix));
  }

  /**
   * The marker of a store built by hand under {@code prefix}, checked every second as the service
   * checks its own.
   */
  public static RedisStoreMarker marker(ReactiveRedisConnectionFactory factory, String prefix) {
    return new RedisStoreMarker(
        new ReactiveStringRedisTemplate(factory),
        prefix,
        Duration.ofSeconds(1),
        Duration.ofSeconds(5));
  }

  /** Output limits for a store built by hand: results for 1000 windows, the default pages. */
  public static OutputProperties outputProperties() {
    return new OutputProperties(
        1000,
        Duration.ofSeconds(1),
        Duration.ofSeconds(15),
        1000,
        100,
        10,
        10,
        Duration.ofSeconds(1),
        Duration.ZERO);
  }

  public static StateProperties stateProperties(String prefix) {
    return stateProperties(StateProperties.Store.REDIS, prefix, 1000, Duration.ofSeconds(1));
  }

  /** State settings built by hand, with the Redis commit settings at their defaults. */
  public static StateProperties stateProperties(
      StateProperties.Store store, String prefix, int paneLogMaxLength, Duration retryAfter) {
    return new StateProperties(
        store,
        prefix,
        paneLogMaxLength,
        retryAfter,
        new StateProperties.Redis(
            Duration.ofSeconds(15), 0, Duration.ofSeconds(1), Duration.ofSeconds(1)));
  }

  public static synchronized String url() {
    if (url == null) {
      url = locate();
    }
    return url;
  }

  /** A started connection factory for {@code url}; the caller destroys it. */
  public static org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory
      connectionFactory(String url) {
    URI uri = URI.create(url);
    var factory =
        new org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory(
            new org.springframework.data.redis.connection.RedisStandaloneConfiguration(
                uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort()));
    factory.afterPropertiesSet();
    factory.start();
    return factory;
  }

  /** Runs commands on the test Redis, over a connection of their own. */
  public static <T> T call(
      java.util.function.Function<io.lettuce.core.api.sync.RedisCommands<String, String>, T>
          commands) {
    return call(url(), commands);
  }

  /** Runs commands on the Redis at {@code url}, over a connection of their own. */
  public static <T> T call(
      String url,
      java.util.function.Function<io.lettuce.core.api.sync.RedisCommands<String, String>, T>
          commands) {
    io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(url);
    try (var connection = client.connect()) {
      return commands.apply(connection.sync());
    } finally {
      client.shutdown();
    }
  }

  /** The keys matching a pattern, read with SCAN. */
  public static java.util.List<String> keys(String pattern) {
    return call(redis -> scan(redis, pattern));
  }

  /**
   * The keys matching a pattern that {@code redis} holds, read with SCAN: one Redis, one node of a
   * cluster, or a whole cluster through its cluster connection.
   */
  static java.util.List<String> scan(
      io.lettuce.core.api.sync.RedisKeyCommands<String, String> redis, String pattern) {
    java.util.List<String> out = new java.util.ArrayList<>();
    io.lettuce.core.ScanArgs args = io.lettuce.core.ScanArgs.Builder.matches(pattern).limit(1000);
    io.lettuce.core.KeyScanCursor<String> cursor = redis.scan(args);
    out.addAll(cursor.getKeys());
    while (!cursor.isFinished()) {
      cursor = redis.scan(cursor, args);
      out.addAll(cursor.getKeys());
    }
    return out;
  }

  /**
   * Deletes every key under a test's prefix, so that tests leave the shared Redis as they found it.
   */
  public static void delete(String prefix) {
    java.util.List<String> keys = keys(prefix + ":*");
    if (!keys.isEmpty()) {
      call(redis -> redis.del(keys.toArray(String[]::new)));
    }
  }

  private static String locate() {
    if (DockerClientFactory.instance().isDockerAvailable()) {
      GenericContainer<?> redis = new GenericContainer<>(IMAGE).withExposedPorts(6379);
      redis.start();
      return "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
    }
    String configured = System.getProperty("spring.data.redis.url");
    if (configured == null) {
      configured = System.getenv("SPRING_DATA_REDIS_URL");
    }
    String candidate = configured != null ? configured : "redis://127.0.0.1:6379";
    if (!answersPing(URI.create(candidate))) {
      throw new IllegalStateException(
          "The Redis tests need a real Redis: no Docker engine for Testcontainers, and nothing"
              + " answered PING at "
              + candidate
              + ". Start one (.ci/run does: redis-server --daemonize yes --port 6379) or set"
              + " spring.data.redis.url.");
    }
    return candidate;
  }

  static boolean answersPing(URI uri) {
    try (Socket s = new Socket()) {
      s.connect(
          new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort()), 2000);
      s.setSoTimeout(2000);
      s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      byte[] reply = new byte[7];
      int n = s.getInputStream().read(reply);
      return n > 0 && new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
    } catch (IOException e) {
      return false;
    }
  }
}
