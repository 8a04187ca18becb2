package io.eventide;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Eventide: Apache Beam's event-time model behind an HTTP API. */
@SpringBootApplication
public class EventideApplication {
  public static void main(String[] args) {
    SpringApplication.run(EventideApplication.class, args);
  }
}
