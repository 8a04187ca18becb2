package io.eventide.config;

import io.eventide.engine.ProcessingClock;
import io.eventide.pipeline.PipelineLimits;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Binds Eventide's settings and supplies the wall clock the live runtime runs on. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({
  RuntimeProperties.class,
  IngestProperties.class,
  OutputProperties.class,
  SimulationProperties.class,
  PipelineProperties.class,
  ClusterProperties.class
})
public class EventideConfiguration {

  @Bean
  ProcessingClock wallClock() {
    return System::currentTimeMillis;
  }

  @Bean
  PipelineLimits pipelineLimits(PipelineProperties pipelines) {
    return pipelines.limits();
  }
}
