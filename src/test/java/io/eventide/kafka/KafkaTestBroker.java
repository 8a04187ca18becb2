package io.eventide.kafka;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * One real broker for every Kafka test in the JVM: Testcontainers' Kafka where a Docker engine
 * answers, else spring-kafka-test's in-process KRaft broker. Both can be taken away and brought
 * back with their data, for the outage test. {@link Stopper} stops it once every test has run.
 */
public final class KafkaTestBroker implements AutoCloseable {
  private static final String IMAGE = "apache/kafka-native:4.1.1";
  private static KafkaTestBroker instance;

  private final EmbeddedKafkaKraftBroker embedded;
  private final KafkaContainer container;

  private KafkaTestBroker(EmbeddedKafkaKraftBroker embedded, KafkaContainer container) {
    this.embedded = embedded;
    this.container = container;
  }

  public static synchronized KafkaTestBroker get() {
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

  /**
   * Stops the broker when the whole test run is over (the root context's store closes what it
   * holds), after the Spring contexts that use it, which close with their classes.
   */
  public static final class Stopper implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
      context
          .getRoot()
          .getStore(ExtensionContext.Namespace.create(KafkaTestBroker.class))
          .computeIfAbsent(KafkaTestBroker.class, k -> get(), KafkaTestBroker.class);
    }
  }

  @Override
  public void close() {
    synchronized (KafkaTestBroker.class) {
      if (embedded != null) {
        embedded.destroy();
      } else {
        container.stop();
      }
      instance = null;
    }
  }

  public String bootstrapServers() {
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

  /** Brings the broker back on the same address, with the records it had, and waits for it. */
  void start() throws Exception {
    if (embedded != null) {
      broker().startup();
      embedded.getCluster().waitForReadyBrokers();
    } else {
      container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
    }
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(() -> !admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).isEmpty());
    }
  }

  private BrokerServer broker() {
    return embedded.getCluster().brokers().values().iterator().next();
  }
}
