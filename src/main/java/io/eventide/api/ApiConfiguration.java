package io.eventide.api;

import io.eventide.definition.PipelineLimits;
import io.eventide.simulation.SimulationLimits;
import io.eventide.simulation.SimulationProperties;
import io.eventide.simulation.SimulationRequestParser;
import io.eventide.simulation.Simulator;
import io.swagger.v3.core.util.Yaml31;
import io.swagger.v3.oas.models.OpenAPI;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Binds the settings of what clients send (definitions, simulations) and wires the Spring-free
 * simulation classes and the API description.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SimulationProperties.class, PipelineProperties.class})
class ApiConfiguration {

  @Bean
  PipelineLimits pipelineLimits(PipelineProperties pipelines) {
    return pipelines.limits();
  }

  @Bean
  SimulationLimits simulationLimits(SimulationProperties p) {
    return new SimulationLimits(
        p.maxSteps(), p.maxEvents(), p.maxOutputs(), p.maxOutputBytes().toBytes(), p.maxDuration());
  }

  @Bean
  SimulationRequestParser simulationRequestParser(
      SimulationLimits limits, PipelineLimits pipelineLimits) {
    return new SimulationRequestParser(limits, pipelineLimits);
  }

  @Bean
  Simulator simulator(SimulationLimits limits) {
    return new Simulator(limits);
  }

  /**
   * Simulations run on threads of their own, one per core, with a short queue: past it a request is
   * refused with 503 instead of waiting, so that simulations cannot starve each other or the
   * pipelines of CPU for long.
   */
  @Bean(destroyMethod = "dispose")
  Scheduler simulations() {
    int cores = Runtime.getRuntime().availableProcessors();
    return Schedulers.newBoundedElastic(cores, 4 * cores, "eventide-simulate");
  }

  /**
   * {@code /v3/api-docs} serves the hand-written openapi.yaml, so that the two are one document;
   * OpenApiDriftTest holds the yaml to the controllers' actual routes, parameters and media types.
   */
  @Bean
  OpenApiCustomizer contract() {
    OpenAPI contract = readContract();
    return openApi ->
        openApi
            .info(contract.getInfo())
            .tags(contract.getTags())
            .security(contract.getSecurity())
            .paths(contract.getPaths())
            .components(contract.getComponents());
  }

  private static OpenAPI readContract() {
    try (InputStream in = new ClassPathResource("openapi.yaml").getInputStream()) {
      return Yaml31.mapper().readValue(in, OpenAPI.class);
    } catch (IOException e) {
      throw new UncheckedIOException("openapi.yaml is missing from the classpath or invalid", e);
    }
  }
}
