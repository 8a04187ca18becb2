package io.eventide.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Holds the layering that docs/architecture.md draws: requests enter through {@code api}, the
 * {@code runtime} orders and commits around the {@code core}, which alone drives the {@code
 * engine}; state, sinks, Kafka, security and operations are adapters around them, and no package
 * depends on one that depends back on it.
 */
class LayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.eventide");

  @Test
  void eachLayerIsReachedOnlyFromTheLayersAboveIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("api")
        .definedBy("io.eventide.api..")
        .layer("simulation")
        .definedBy("io.eventide.simulation..")
        .layer("runtime")
        .definedBy("io.eventide.runtime..")
        .layer("core")
        .definedBy("io.eventide.core..")
        .layer("pipeline")
        .definedBy("io.eventide.pipeline..")
        .layer("engine")
        .definedBy("io.eventide.engine..")
        .layer("state")
        .definedBy("io.eventide.state..")
        .layer("sink")
        .definedBy("io.eventide.sink..")
        .layer("kafka")
        .definedBy("io.eventide.kafka..")
        .layer("security")
        .definedBy("io.eventide.security..")
        .layer("ops")
        .definedBy("io.eventide.ops..")
        .layer("config")
        .definedBy("io.eventide.config..")
        .whereLayer("api")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("simulation")
        .mayOnlyBeAccessedByLayers("api")
        .whereLayer("runtime")
        .mayOnlyBeAccessedByLayers("api", "kafka", "ops")
        .whereLayer("core")
        // config turns properties into the core's value types (IngestBounds).
        .mayOnlyBeAccessedByLayers(
            "api", "simulation", "runtime", "state", "sink", "kafka", "ops", "config")
        .whereLayer("state")
        .mayOnlyBeAccessedByLayers("api", "runtime", "ops")
        .whereLayer("sink")
        .mayOnlyBeAccessedByLayers("api", "runtime", "state", "kafka", "ops")
        .whereLayer("kafka")
        .mayOnlyBeAccessedByLayers("api", "ops")
        .whereLayer("security")
        .mayOnlyBeAccessedByLayers("api", "state", "ops")
        .whereLayer("ops")
        .mayOnlyBeAccessedByLayers("api")
        .whereLayer("core")
        .mayOnlyAccessLayers("pipeline", "engine")
        .whereLayer("pipeline")
        .mayOnlyAccessLayers("engine")
        .whereLayer("engine")
        .mayNotAccessAnyLayer()
        .check(MAIN);
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.eventide.(*)..").should().beFreeOfCycles().check(MAIN);
  }
}
