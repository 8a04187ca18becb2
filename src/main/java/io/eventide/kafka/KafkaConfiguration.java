package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.Violation;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.RunningPipelines;
import io.eventide.runtime.Streams;
import io.eventide.sink.ForwarderStore;
import io.eventide.sink.PaneLogs;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * Kafka is optional: without {@code eventide.kafka.enabled=true} no Kafka client is created (Boot's
 * own Kafka beans connect to nothing until used) and pipelines that name Kafka are refused.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KafkaSettings.class)
public class KafkaConfiguration {
  private static final Logger log = LoggerFactory.getLogger(KafkaConfiguration.class);

  @Bean
  KafkaNamespace kafkaNamespace(KafkaSettings settings) {
    return new KafkaNamespace(settings.namespace());
  }

  /**
   * What a record's delivery rests on, whatever spring.kafka.producer.* says: every record on every
   * in-sync replica, retried for as long as it takes, in order, never written twice by a retry.
   */
  static Map<String, Object> producerProperties(KafkaProperties kafka) {
    Map<String, Object> props = new HashMap<>(kafka.buildProducerProperties());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    props.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
    // A send that cannot get metadata fails at once after this, and is tried again later.
    props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return props;
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(
      name = "eventide.kafka.enabled",
      havingValue = false,
      matchIfMissing = true)
  static class Disabled {
    @Bean
    KafkaNotConfigured kafkaNotConfigured() {
      return new KafkaNotConfigured();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty("eventide.kafka.enabled")
  static class Enabled {
    /** Closed by {@link KafkaTopics}, with a bound: a cluster that is away must not hold it up. */
    @Bean(destroyMethod = "")
    Admin eventideKafkaAdmin(KafkaProperties kafka) {
      return Admin.create(kafka.buildAdminProperties());
    }

    /** Creates the topics records go to. */
    @Bean
    KafkaTopics kafkaTopics(Admin eventideKafkaAdmin) {
      return new KafkaTopics(eventideKafkaAdmin);
    }

    /** Dead letters: queued in memory and sent from there. */
    @Bean
    KafkaOutbox kafkaOutbox(KafkaProperties kafka, KafkaTopics topics, KafkaSettings settings) {
      return new KafkaOutbox(
          new KafkaProducer<>(producerProperties(kafka)),
          topics,
          settings.outboxCapacity(),
          settings.retryBackoff(),
          settings.maxRetryBackoff(),
          settings.parkAfter());
    }

    /**
     * Panes: forwarded from the pane log with a producer of their own, so that dead letters waiting
     * in the outbox never take the buffer that panes need.
     */
    @Bean
    KafkaForwarders kafkaForwarders(
        PaneLogs paneLogs,
        ForwarderStore forwarderStore,
        KafkaProperties kafka,
        KafkaTopics topics,
        KafkaNamePolicy names,
        PipelineRegistry registry,
        KafkaSettings settings,
        MeterRegistry meters) {
      return new KafkaForwarders(
          paneLogs,
          forwarderStore,
          new KafkaProducer<>(producerProperties(kafka)),
          topics,
          names,
          registry,
          settings,
          meters);
    }

    @Bean
    KafkaNamePolicy kafkaNamePolicy(KafkaNamespace kafkaNamespace, KafkaSettings settings) {
      return new KafkaNamePolicy(kafkaNamespace, settings.grants());
    }

    @Bean
    KafkaDeadLetterSink kafkaDeadLetterSink(KafkaOutbox outbox, KafkaNamespace kafkaNamespace) {
      return new KafkaDeadLetterSink(outbox, kafkaNamespace);
    }

    @Bean
    ListenerContainers kafkaListenerContainers(KafkaProperties kafka, KafkaSettings settings) {
      return new ListenerContainers(kafka.buildConsumerProperties(), settings.retryBackoff());
    }

    @Bean
    KafkaEventSources kafkaEventSources(
        ListenerContainers kafkaListenerContainers, RunningPipelines runtimes) {
      return new KafkaEventSources(kafkaListenerContainers, runtimes);
    }

    @Bean
    KafkaStreamSources kafkaStreamSources(
        ListenerContainers kafkaListenerContainers,
        Streams streams,
        KafkaNamespace kafkaNamespace,
        KafkaSettings settings,
        RunningPipelines runtimes) {
      return new KafkaStreamSources(
          kafkaListenerContainers, streams, kafkaNamespace, settings.streams(), runtimes.durable());
    }

    /** The outbox's fate counters, so that operators can alert on Kafka trouble. */
    @Bean
    MeterBinder kafkaOutboxMetrics(KafkaOutbox outbox) {
      return registry -> {
        FunctionCounter.builder("eventide.kafka.send.failures", outbox, KafkaOutbox::failed)
            .description("Records the broker refused for good (too large, not authorised)")
            .register(registry);
        FunctionCounter.builder("eventide.kafka.outbox.dropped", outbox, KafkaOutbox::dropped)
            .description(
                "Records dropped because the outbox was full while Kafka was away, or their topic"
                    + " was parked")
            .register(registry);
        Gauge.builder("eventide.kafka.outbox.parked", outbox, KafkaOutbox::parked)
            .description("Topics parked: refused for long while other topics were delivered")
            .register(registry);
        Gauge.builder("eventide.kafka.outbox.pending", outbox, KafkaOutbox::pending)
            .description("Records waiting to be sent or acknowledged")
            .register(registry);
      };
    }

    @Bean
    KafkaHealthIndicator kafkaHealthIndicator(
        Admin eventideKafkaAdmin,
        KafkaOutbox outbox,
        KafkaForwarders forwarders,
        KafkaSettings settings) {
      return new KafkaHealthIndicator(
          eventideKafkaAdmin, outbox, forwarders, settings.healthTimeout());
    }

    /**
     * The streams' sources start with the process. Pipelines stored before this process started get
     * their event sources too, unless they name Kafka topics or groups the rules no longer allow
     * them (stored before the rules, or before a grant was withdrawn): those stay off Kafka until
     * redefined or granted.
     */
    @EventListener(ApplicationReadyEvent.class)
    void startStoredSources(ApplicationReadyEvent event) {
      PipelineRegistry registry = event.getApplicationContext().getBean(PipelineRegistry.class);
      KafkaEventSources sources = event.getApplicationContext().getBean(KafkaEventSources.class);
      KafkaNamePolicy names = event.getApplicationContext().getBean(KafkaNamePolicy.class);
      event.getApplicationContext().getBean(KafkaStreamSources.class).start();
      event.getApplicationContext().getBean(KafkaForwarders.class).start();
      for (PipelineDefinition definition : registry.list().toIterable()) {
        List<Violation> violations = names.violations(definition);
        if (violations.isEmpty()) {
          sources.defined(definition);
        } else {
          log.error(
              "pipeline {} stays off Kafka (no source, no pane sink) until it is redefined: {}",
              definition.name(),
              violations);
        }
      }
    }
  }
}
