package io.eventide.state;

import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The real Redis Cluster the cluster tests run Eventide on: the seed nodes named by {@code
 * eventide.test.redis-cluster} (system property, or EVENTIDE_TEST_REDIS_CLUSTER), else the three
 * primaries on 127.0.0.1:7001-7003 that {@code .ci/redis-cluster} starts. Testcontainers has no
 * Redis Cluster to offer, so with none answering the tests fail and say how to start one.
 *
 * <p>Tests share it as they share {@link TestRedis}: each takes a key prefix of its own and deletes
 * its keys when it is done.
 */
public final class TestRedisCluster implements StoreUnderTest {
  static final String DEFAULT_NODES = "127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003";

  private static TestRedisCluster instance;

  private final String nodes;

  private TestRedisCluster(String nodes) {
    this.nodes = nodes;
  }

  /** The cluster, once it answered whole ({@code cluster_state:ok}); fails if it does not. */
  public static synchronized TestRedisCluster get() {
    if (instance == null) {
      String configured = System.getProperty("eventide.test.redis-cluster");
      if (configured == null) {
        configured = System.getenv("EVENTIDE_TEST_REDIS_CLUSTER");
      }
      TestRedisCluster cluster =
          new TestRedisCluster(configured != null ? configured : DEFAULT_NODES);
      cluster.ensureWhole();
      instance = cluster;
    }
    return instance;
  }

  /**
   * The seed nodes, {@code host:port,host:port,…}, as spring.data.redis.cluster.nodes takes them.
   */
  public String nodes() {
    return nodes;
  }

  @Override
  public List<String> arguments(String prefix) {
    return List.of(
        "--spring.data.redis.cluster.nodes=" + nodes,
        "--eventide.state.store=redis",
        "--eventide.state.key-prefix=" + prefix);
  }

  @Override
  public void delete(String prefix) {
    call(
        redis -> {
          // The cluster connection scans every primary and splits the delete by slot.
          List<String> keys = TestRedis.scan(redis, prefix + ":*");
          return keys.isEmpty() ? 0L : redis.del(keys.toArray(String[]::new));
        });
  }

  /** The primaries' addresses, {@code host:port}, each having answered PING. */
  public Set<String> primaries() {
    return onEachPrimary(RedisClusterCommands::ping).keySet();
  }

  /** How many keys matching {@code pattern} each primary holds, by its address. */
  public Map<String, Integer> keysPerPrimary(String pattern) {
    return onEachPrimary(redis -> TestRedis.scan(redis, pattern).size());
  }

  /** What {@code commands} answer on each primary, by its address, {@code host:port}. */
  public <T> Map<String, T> onEachPrimary(
      Function<RedisClusterCommands<String, String>, T> commands) {
    return connected(
        connection -> {
          Map<String, T> out = new TreeMap<>();
          for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM)) {
              RedisURI uri = node.getUri();
              out.put(
                  uri.getHost() + ":" + uri.getPort(),
                  commands.apply(connection.sync().getConnection(node.getNodeId())));
            }
          }
          return out;
        });
  }

  /** Runs commands on the cluster, over a cluster connection of their own. */
  public <T> T call(Function<RedisAdvancedClusterCommands<String, String>, T> commands) {
    return connected(connection -> commands.apply(connection.sync()));
  }

  private <T> T connected(Function<StatefulRedisClusterConnection<String, String>, T> work) {
    List<RedisURI> seeds =
        Arrays.stream(nodes.split(","))
            .map(String::trim)
            .map(node -> RedisURI.create("redis://" + node))
            .toList();
    RedisClusterClient client = RedisClusterClient.create(seeds);
    try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
      return work.apply(connection);
    } finally {
      client.shutdown();
    }
  }

  private void ensureWhole() {
    String info;
    try {
      info = call(redis -> redis.clusterInfo());
    } catch (RedisException e) {
      throw notAnswering("nothing answered (" + e.getMessage() + ")");
    }
    if (!info.contains("cluster_state:ok")) {
      throw notAnswering("the cluster is not whole:\n" + info);
    }
  }

  private IllegalStateException notAnswering(String what) {
    return new IllegalStateException(
        "The Redis Cluster tests need a real Redis Cluster at "
            + nodes
            + ", and "
            + what
            + ". Run .ci/redis-cluster (three primaries on 127.0.0.1:7001-7003; .ci/run does) or"
            + " set eventide.test.redis-cluster to the seed nodes of another.");
  }
}
