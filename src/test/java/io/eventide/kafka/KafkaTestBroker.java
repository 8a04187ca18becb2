package io.eventide.kafka;

import java.util.concurrent.TimeUnit;
import kafka.server.BrokerServer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * One real broker for every Kafka test in the JVM: Testcontainers' Kafka where a Docker engine
 * answers, else spring-kafka-test's in-process KRaft broker. Both can be taken away and brought
 * back with their data, for the outage test.
 */
final class KafkaTestBroker {
  private static final String IMAGE = "apache/kafka-native:4.1.1";
  private static KafkaTestBroker instance;

  private final EmbeddedKafkaKraftBroker embedded;
  private final KafkaContainer container;

  private KafkaTestBroker(EmbeddedKafkaKraftBroker embedded, KafkaContainer container) {
    this.embedded = embedded;
    this.container = container;
  }

  static synchronized KafkaTestBroker get() {
    if (instance == null) {
      if (DockerClientFactory.instance().isDockerAvailable()) {
        KafkaContainer kafka = new KafkaContainer(IMAGE);
        kafka.start();
        instance = new KafkaTestBroker(null, kafka);
      } else {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 2);
        broker.afterPropertiesSet();
        instance = new KafkaTestBroker(broker, null);
      }
    }
    return instance;
  }

  String bootstrapServers() {
    return embedded != null ? embedded.getBrokersAsString() : container.getBootstrapServers();
  }

  boolean inProcess() {
    return embedded != null;
  }

  /**
   * Takes the broker away: the in-process one shuts its broker down (the KRaft controller and the
   * log directories stay), the container is paused so that its mapped port stays the same.
   */
  void stop() {
    if (embedded != null) {
      BrokerServer broker = broker();
      broker.shutdown();
      broker.awaitShutdown();
    } else {
      container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
    }
  }

  /** Brings the broker back on the same address, with the records it had. */
  void start() throws Exception {
    if (embedded != null) {
      broker().startup();
      embedded.getCluster().waitForReadyBrokers();
    } else {
      container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
    }
    TimeUnit.MILLISECONDS.sleep(100);
  }

  private BrokerServer broker() {
    return embedded.getCluster().brokers().values().iterator().next();
  }
}
