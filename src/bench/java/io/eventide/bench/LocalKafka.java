package io.eventide.bench;

import java.util.Map;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A Kafka broker for benchmarking cluster mode on a machine without one: spring-kafka-test's
 * in-process KRaft broker on a fixed port, set up for transactions with one broker, running until
 * the process is stopped.
 *
 * <p>Usage: {@code LocalKafka port=9092}.
 */
public final class LocalKafka {
  private LocalKafka() {}

  public static void main(String[] args) throws InterruptedException {
    int port = Integer.parseInt(BenchTable.parse(args).getOrDefault("port", "9092"));
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.kafkaPorts(port);
    broker.brokerProperties(
        Map.of(
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1"));
    broker.afterPropertiesSet();
    System.out.println("Kafka at " + broker.getBrokersAsString());
    Thread.currentThread().join();
  }
}
