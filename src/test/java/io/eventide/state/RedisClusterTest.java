package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.state.redis.RedisEvictionHealthIndicator;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Eventide on a real Redis Cluster of three primaries ({@link TestRedisCluster}), in the {@code
 * redis} profile with {@code spring.data.redis.cluster.nodes}: each pipeline's keys share its hash
 * tag, so its commit scripts run on the primary of its slot, and pipelines of several names spread
 * over the primaries. Killed with SIGKILL mid-ingestion and started again, it loses nothing
 * acknowledged and counts nothing twice, on every primary; deleting a pipeline finds its keys.
 */
class RedisClusterTest {
  /**
   * Names whose hash tags fall in the slots of each of the three primaries {@code
   * .ci/redis-cluster} creates (0-5460, 5461-10922, 10923-16383): 105, 8507 and 12981.
   */
  private static final List<String> PIPELINES = List.of("orders", "payments", "clicks");

  private final TestRedisCluster cluster = TestRedisCluster.get();
  private final String prefix = TestRedis.newKeyPrefix();

  @Test
  void pipelinesOnSeveralPrimariesSurviveKillDashNineExactlyOnce() throws Exception {
    try (ChildService child =
        ChildService.start(cluster.arguments(prefix), "--spring.profiles.active=redis")) {
      KillMidIngestion.run(child, PIPELINES);

      // The cluster's own health, read from every node: the service is on the cluster, not on the
      // profile's url.
      JsonNode health =
          child.api.send(HttpMethod.GET, "/actuator/health", null, null).body().get("components");
      assertThat(health.at("/redis/status").asString()).isEqualTo("UP");
      assertThat(health.at("/redis/details/cluster_size").asInt()).isEqualTo(3);
      assertThat(health.at("/redisEviction/status").asString()).isEqualTo("UP");
      assertThat(health.at("/redisEviction/details/maxmemoryPolicy").asString())
          .isEqualTo("noeviction");
      assertThat(health.at("/redisStore/details/persistence").asString()).isEqualTo("none");

      Map<String, Integer> perPrimary = cluster.keysPerPrimary(prefix + ":{*");
      assertThat(perPrimary.values().stream().filter(keys -> keys > 0).count())
          .as("primaries holding the pipelines' keys: %s", perPrimary)
          .isGreaterThanOrEqualTo(2);

      // Deleting a pipeline finds its keys on whichever primary serves its slot.
      child.api.delete("clicks").expect(204);
      assertThat(cluster.keysPerPrimary(prefix + ":{clicks}:*").values()).containsOnly(0);
    } finally {
      cluster.delete(prefix);
    }
  }

  /**
   * One primary that may evict is enough to lose the pipelines of its slots: the eviction check
   * reads every node's policy, whichever node Redis lists first.
   */
  @Test
  void anyPrimaryThatMayEvictTakesTheServiceOutOfReadiness() {
    LettuceConnectionFactory factory =
        new LettuceConnectionFactory(
            new RedisClusterConfiguration(Arrays.asList(cluster.nodes().split(","))));
    factory.afterPropertiesSet();
    factory.start();
    try {
      RedisEvictionHealthIndicator check = new RedisEvictionHealthIndicator(factory);
      assertThat(check.health().block().getStatus()).isEqualTo(Status.UP);
      for (String primary : cluster.primaries()) {
        setPolicy(primary, "allkeys-lru");
        Health evicting = check.health().block();
        assertThat(evicting.getStatus()).as("with %s evicting", primary).isEqualTo(Status.DOWN);
        assertThat(evicting.getDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru");
        setPolicy(primary, "noeviction");
      }
      assertThat(check.health().block().getStatus()).isEqualTo(Status.UP);
    } finally {
      cluster.onEachPrimary(redis -> redis.configSet("maxmemory-policy", "noeviction"));
      factory.destroy();
    }
  }

  private static void setPolicy(String primary, String policy) {
    TestRedis.call("redis://" + primary, redis -> redis.configSet("maxmemory-policy", policy));
  }
}
