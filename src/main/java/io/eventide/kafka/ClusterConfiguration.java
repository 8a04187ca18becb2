package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.ClusterIngest;
import io.eventide.runtime.ClusterProperties;
import io.eventide.runtime.OwnedPartitions;
import io.eventide.runtime.PipelineLifecycleListener;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Cluster mode (docs/scaling.md), on with {@code eventide.cluster.enabled}: the ingest log on
 * Kafka, the partitions this replica owns, and the consumer through which the group assigns them.
 * It needs Kafka and the Redis store, and refuses to start without them.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ClusterProperties.class)
@ConditionalOnBooleanProperty("eventide.cluster.enabled")
public class ClusterConfiguration {

  ClusterConfiguration(Environment environment) {
    if (!environment.getProperty("eventide.kafka.enabled", Boolean.class, false)
        || !"redis".equalsIgnoreCase(environment.getProperty("eventide.state.store", "memory"))) {
      throw new IllegalStateException(
          "eventide.cluster.enabled needs eventide.kafka.enabled=true and"
              + " eventide.state.store=redis: the ingest log is a Kafka topic and partitions move"
              + " between replicas with their state in Redis (the `cluster` profile sets all"
              + " three)");
    }
  }

  @Bean(destroyMethod = "close")
  KafkaIngestLog ingestLog(
      Admin eventideKafkaAdmin,
      KafkaNamespace kafkaNamespace,
      ClusterProperties cluster,
      KafkaProperties kafka) {
    return new KafkaIngestLog(
        eventideKafkaAdmin,
        kafkaNamespace,
        cluster,
        new KafkaProducer<>(
            KafkaIngestLog.producerProperties(kafka.buildProducerProperties(), cluster)));
  }

  @Bean
  ClusterConsumer clusterConsumer(
      KafkaProperties kafka,
      ClusterProperties cluster,
      OwnedPartitions ownedPartitions,
      PipelineRegistry registry,
      KafkaNamespace kafkaNamespace,
      MeterRegistry meters) {
    Map<String, Object> props = new HashMap<>(kafka.buildConsumerProperties());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, cluster.group());
    // Where a partition resumes is in Redis with its state; the group's offsets are for lag only.
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(
        ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
        CooperativeStickyAssignor.class.getName());
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, cluster.maxPollRecords());
    int session = (int) cluster.sessionTimeout().toMillis();
    props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, session);
    props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, Math.max(1, session / 3));
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    // The consumer's own metrics (kafka_consumer_*), records-lag per partition among them.
    Supplier<Consumer<byte[], byte[]>> consumers =
        () -> {
          KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
          new KafkaClientMetrics(consumer).bindTo(meters);
          return consumer;
        };
    return new ClusterConsumer(consumers, ownedPartitions, registry, kafkaNamespace, cluster);
  }

  /**
   * A pipeline's ingest topic is created when it is defined, so that the group assigns its
   * partitions before the first event arrives (the first append creates it otherwise).
   */
  @Bean
  PipelineLifecycleListener ingestTopics(KafkaIngestLog ingestLog) {
    return new PipelineLifecycleListener() {
      @Override
      public void defined(PipelineDefinition definition) {
        ingestLog.partitions(definition.name());
      }
    };
  }

  /** Readiness: UP once this replica has joined the group and can own partitions. */
  @Bean("clusterHealthContributor")
  HealthIndicator clusterHealth(ClusterConsumer consumer, OwnedPartitions ownedPartitions) {
    return () ->
        (consumer.joined() ? Health.up() : Health.down().withDetail("reason", "not in the group"))
            .withDetail("ownedPartitions", ownedPartitions.ids().size())
            .build();
  }

  @Bean
  MeterBinder clusterMetrics(
      ClusterConsumer consumer, OwnedPartitions ownedPartitions, ClusterIngest ingest) {
    return registry -> {
      Gauge.builder("eventide.cluster.partitions.owned", ownedPartitions, o -> o.ids().size())
          .description("Partitions of pipelines' ingest logs this replica owns")
          .register(registry);
      FunctionCounter.builder("eventide.cluster.rebalances", consumer, ClusterConsumer::rebalances)
          .description("Rebalances that took partitions from this replica")
          .register(registry);
      FunctionCounter.builder(
              "eventide.cluster.consumer.restarts", consumer, ClusterConsumer::restarts)
          .description(
              "Sessions of this replica's partitions' consumer that failed and were replaced (it"
                  + " leaves the group and joins again after a back-off)")
          .register(registry);
      FunctionCounter.builder(
              "eventide.cluster.windows.states.read", ingest, ClusterIngest::keyStatesRead)
          .description(
              "Key states this replica read from Redis to answer /windows without a key: at most"
                  + " a page's worth per partition")
          .register(registry);
    };
  }
}
