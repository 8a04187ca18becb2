package io.eventide.runtime;

import io.eventide.core.IngestBounds;
import io.eventide.engine.ProcessingClock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Binds the runtime's settings and supplies the wall clock the live runtime runs on. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({
  RuntimeProperties.class,
  IngestProperties.class,
  ClusterProperties.class
})
public class RuntimeConfiguration {

  @Bean
  ProcessingClock wallClock() {
    return System::currentTimeMillis;
  }

  /** What the live runtime bounds per pipeline, for the state stores that rebuild it. */
  @Bean
  IngestBounds ingestBounds(IngestProperties ingest) {
    return ingest.bounds();
  }
}
