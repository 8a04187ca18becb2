package io.eventide.cluster;

import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.state.ChildService;
import io.eventide.state.StoreUnderTest;
import io.eventide.state.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpMethod;

/**
 * Replicas of one Eventide deployment in cluster mode, each a child JVM ({@link ChildService}): one
 * Redis key prefix, one Kafka namespace and consumer group (all new, so that no other test shares
 * them), the test Redis (or one of the test's own, or the test Redis Cluster) and the test broker.
 * A replica can be killed (SIGKILL), stopped (SIGTERM, a graceful shutdown), frozen (SIGSTOP) and
 * thawed, and started again on its port.
 */
public final class ClusterReplicas implements AutoCloseable {
  private final String prefix = TestRedis.newKeyPrefix();
  private final String namespace = "t" + UUID.randomUUID().toString().substring(0, 8) + ".";
  private final List<ChildService> replicas = new ArrayList<>();
  private final StoreUnderTest store;

  ClusterReplicas(int count, String... settings) throws Exception {
    this(TestRedis.url(), count, settings);
  }

  /** On the Redis at {@code redisUrl}, such as a {@code StoppableRedis} an outage test stops. */
  public ClusterReplicas(String redisUrl, int count, String... settings) throws Exception {
    this(StoreUnderTest.redis(redisUrl), count, settings);
  }

  /** On {@code store}, such as the test Redis Cluster. */
  public ClusterReplicas(StoreUnderTest store, int count, String... settings) throws Exception {
    this.store = store;
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--spring.kafka.bootstrap-servers=" + KafkaTestBroker.get().bootstrapServers(),
                "--eventide.kafka.enabled=true",
                "--eventide.kafka.namespace=" + namespace,
                "--eventide.cluster.enabled=true",
                "--eventide.cluster.group=" + namespace + "_cluster",
                "--eventide.cluster.partitions=6",
                "--eventide.cluster.session-timeout=6s"));
    arguments.addAll(List.of(settings));
    for (int i = 0; i < count; i++) {
      replicas.add(ChildService.prepare(store.arguments(prefix), arguments.toArray(String[]::new)));
    }
  }

  /** The Redis key prefix of this deployment. */
  String prefix() {
    return prefix;
  }

  /** The Kafka names' namespace of this deployment. */
  String namespace() {
    return namespace;
  }

  public int count() {
    return replicas.size();
  }

  /** Starts every replica at once and waits until each is ready. */
  public ClusterReplicas startAll() throws Exception {
    for (ChildService r : replicas) {
      r.launch();
    }
    for (int i = 0; i < replicas.size(); i++) {
      awaitReady(i);
    }
    return this;
  }

  void start(int i) throws Exception {
    replicas.get(i).launch();
  }

  /** Waits until replica {@code i} is ready: started, and joined the consumer group. */
  public void awaitReady(int i) {
    ChildService replica = replicas.get(i);
    replica.awaitStarted();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                replica.api.send(HttpMethod.GET, "/actuator/health/readiness", null, null).status()
                    == 200);
  }

  void kill(int i) throws InterruptedException {
    replicas.get(i).kill();
  }

  void stop(int i) throws InterruptedException {
    replicas.get(i).stop();
  }

  void freeze(int i) throws Exception {
    replicas.get(i).freeze();
  }

  void thaw(int i) throws Exception {
    replicas.get(i).thaw();
  }

  boolean alive(int i) {
    return replicas.get(i).alive();
  }

  public LiveApi api(int i) {
    return replicas.get(i).api;
  }

  /** The value of a series in replica {@code i}'s Prometheus scrape. */
  public double metric(int i, String series) throws Exception {
    return replicas.get(i).metric(series);
  }

  public String log(int i) throws Exception {
    return replicas.get(i).log();
  }

  @Override
  public void close() throws Exception {
    for (ChildService r : replicas) {
      r.close();
    }
    store.delete(prefix);
  }
}
