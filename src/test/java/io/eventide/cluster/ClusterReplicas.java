package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.state.ChildService;
import io.eventide.state.StoreUnderTest;
import io.eventide.state.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Replicas of one Eventide deployment in cluster mode, each a child JVM ({@link ChildService}): one
 * Redis key prefix, one Kafka namespace and consumer group (all new, so that no other test shares
 * them), the test Redis (or one of the test's own, or the test Redis Cluster) and the test broker.
 * A replica can be killed (SIGKILL), stopped (SIGTERM, a graceful shutdown), frozen (SIGSTOP) and
 * thawed, and started again on its port.
 */
public final class ClusterReplicas implements AutoCloseable {
  /**
   * Settings for tests that take Redis away: a Redis command gives up after 500 ms and a post waits
   * at most 3 s for its records to be applied, so that an outage shows in seconds.
   */
  public static final String[] QUICK_TO_GIVE_UP = {
    "--spring.data.redis.timeout=500ms", "--eventide.cluster.apply-timeout=3s"
  };

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

  /**
   * Waits until every replica's {@code /results} of {@code pipeline} sum, over every window, to
   * {@code each} for each of the keys {@code k0} to {@code k<keys - 1>}, and hold no other key.
   */
  public void awaitResultSums(String pipeline, int keys, long each, Duration patience) {
    Map<String, Long> expected = new TreeMap<>();
    for (int k = 0; k < keys; k++) {
      expected.put("k" + k, each);
    }
    await()
        .atMost(patience)
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              for (int i = 0; i < replicas.size(); i++) {
                Map<String, Long> sums = new TreeMap<>();
                for (JsonNode r :
                    api(i).get("/pipelines/" + pipeline + "/results").get("results")) {
                  sums.merge(r.get("key").asString(), r.get("value").asLong(), Long::sum);
                }
                assertThat(sums).as("results of replica %d", i).isEqualTo(expected);
              }
            });
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

  /**
   * Waits until every replica owns some of the partitions. A replica takes its share of a new
   * pipeline's partitions once it has read the definition (every {@code subscription-refresh}) and
   * the group has rebalanced; a test whose replicas must each own some must not outrun that.
   */
  public void awaitEveryReplicaOwnsPartitions() {
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (int i = 0; i < replicas.size(); i++) {
                assertThat(metric(i, "eventide_cluster_partitions_owned"))
                    .as("partitions replica %d owns", i)
                    .isPositive();
              }
            });
  }

  /** The sum of a series over every replica's Prometheus scrape. */
  public double metricSum(String series) throws Exception {
    double sum = 0;
    for (int i = 0; i < replicas.size(); i++) {
      sum += metric(i, series);
    }
    return sum;
  }

  /** The status replica {@code i} answers a GET of {@code path} with, e.g. a health probe. */
  public int status(int i, String path) {
    return api(i).send(HttpMethod.GET, path, null, null).status();
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
