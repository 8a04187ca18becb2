package io.eventide.state;

import io.eventide.core.IngestBounds;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.security.RateLimiter;
import io.eventide.security.SecurityProperties;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneLogWatch;
import io.eventide.state.memory.InMemoryPipelineRegistry;
import io.eventide.state.memory.MemoryStateStore;
import io.eventide.state.redis.RedisEvictionHealthIndicator;
import io.eventide.state.redis.RedisForwarderStore;
import io.eventide.state.redis.RedisPaneLogWatch;
import io.eventide.state.redis.RedisPipelineRegistry;
import io.eventide.state.redis.RedisRateLimiter;
import io.eventide.state.redis.RedisStateStore;
import io.eventide.state.redis.RedisStoreHealthIndicator;
import io.eventide.state.redis.RedisStoreMarker;
import io.lettuce.core.ClientOptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.data.redis.health.DataRedisReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/** Chooses the state store and the pipeline registry that goes with it: memory or Redis. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StateProperties.class)
public class StateConfiguration {
  private static final String STORE = "eventide.state.store";

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "memory", matchIfMissing = true)
  static class Memory {
    @Bean
    MemoryStateStore stateStore(OutputProperties outputs, StateProperties state) {
      return new MemoryStateStore(outputs, state);
    }

    @Bean
    PipelineRegistry pipelineRegistry() {
      return new InMemoryPipelineRegistry();
    }

    /** Only this process appends to its pane logs, and its commits announce themselves. */
    @Bean
    PaneLogWatch paneLogWatch() {
      return PaneLogWatch.IN_PROCESS;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "redis")
  static class Redis {
    /**
     * Whether Redis still holds the data this replica saw: the store refuses everything once it
     * does not, readiness is DOWN and {@code eventide_state_store_lost} is 1.
     */
    @Bean(destroyMethod = "close")
    RedisStoreMarker storeMarker(
        ReactiveRedisConnectionFactory factory, StateProperties state, MeterRegistry meters) {
      LettuceConnectionFactory lettuce = (LettuceConnectionFactory) factory;
      RedisStoreMarker marker =
          new RedisStoreMarker(
              new ReactiveStringRedisTemplate(factory),
              state.keyPrefix(),
              state.redis().markerCheckInterval(),
              Duration.ofMillis(lettuce.getTimeout()));
      Gauge.builder("eventide.state.store.lost", marker, m -> m.lost() == null ? 0 : 1)
          .description(
              "1 once Redis lost the data this replica saw in it (it then refuses every request"
                  + " until restarted), else 0")
          .register(meters);
      return marker;
    }

    @Bean(destroyMethod = "close")
    RedisStateStore stateStore(
        ReactiveRedisConnectionFactory factory,
        OutputProperties outputs,
        StateProperties state,
        IngestBounds bounds,
        RedisStoreMarker marker) {
      return new RedisStateStore(factory, outputs, state, bounds, marker);
    }

    @Bean
    PipelineRegistry pipelineRegistry(
        ReactiveStringRedisTemplate redis,
        StateProperties state,
        KafkaNamespace kafka,
        PipelineLimits limits,
        RedisStoreMarker marker) {
      return new RedisPipelineRegistry(redis, state, kafka, limits, marker);
    }

    /** Readiness is DOWN once Redis lost the data this replica saw; persistence in details. */
    @Bean("redisStoreHealthContributor")
    RedisStoreHealthIndicator redisStoreHealth(RedisStoreMarker marker) {
      return new RedisStoreHealthIndicator(marker);
    }

    /**
     * Other replicas append to the pane logs too: a blocking read per watched pipeline tells this
     * replica's streams at once.
     */
    @Bean(destroyMethod = "close")
    RedisPaneLogWatch paneLogWatch(ReactiveRedisConnectionFactory factory, StateProperties state) {
      LettuceConnectionFactory lettuce = (LettuceConnectionFactory) factory;
      return new RedisPaneLogWatch(
          lettuce.getRequiredNativeClient(),
          state.keyPrefix(),
          Duration.ofMillis(lettuce.getTimeout()));
    }

    /** Pane forwarders' leases and checkpoints, beside the pane logs they read. */
    @Bean
    RedisForwarderStore forwarderStore(ReactiveStringRedisTemplate redis, StateProperties state) {
      return new RedisForwarderStore(redis, state);
    }

    @Bean
    RateLimiter rateLimiter(
        ReactiveStringRedisTemplate redis, StateProperties state, SecurityProperties security) {
      return new RedisRateLimiter(redis, state, security);
    }

    /**
     * Redis in health and readiness whenever it is the store, whatever the profile: Spring Boot's
     * own indicator is switched off (management.health.redis.enabled) so that the memory store is
     * never reported DOWN for a Redis it does not use.
     */
    @Bean("redisHealthContributor")
    DataRedisReactiveHealthIndicator redisHealth(ReactiveRedisConnectionFactory factory) {
      return new DataRedisReactiveHealthIndicator(factory);
    }

    /** Readiness is DOWN while Redis may evict Eventide's keys (see the indicator). */
    @Bean("redisEvictionHealthContributor")
    RedisEvictionHealthIndicator redisEvictionHealth(ReactiveRedisConnectionFactory factory) {
      return new RedisEvictionHealthIndicator(factory);
    }

    /**
     * While disconnected, commands fail at once instead of waiting to be replayed on reconnect: a
     * commit that answered 503 must never be applied later behind the producer's back.
     */
    @Bean
    LettuceClientOptionsBuilderCustomizer rejectWhileDisconnected() {
      // Boot's own options (connect timeout, SSL bundle, cluster refresh) stay: this only adds.
      return builder ->
          builder.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    }
  }
}
