package io.eventide.bench;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A Kafka broker for benchmarking cluster mode on a machine without one: spring-kafka-test's
 * in-process KRaft broker, running until the process is stopped; it prints its address.
 */
public final class LocalKafka {
  private LocalKafka() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    System.out.println("Kafka at " + broker.getBrokersAsString());
    Thread.currentThread().join();
  }
}
