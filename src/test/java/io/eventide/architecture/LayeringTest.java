package io.eventide.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * Holds the layering that docs/architecture.md draws: requests enter through {@code api}, the
 * {@code runtime} orders and commits around the {@code core}, which alone drives the {@code
 * engine}; the {@code definition} language sits between the core and the engine; state, sinks,
 * Kafka, security and operations are adapters around them, and no package depends on one that
 * depends back on it.
 */
class LayeringTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.eventide");

  /** Each package of the definition language a slice, its root package included. */
  private static final SliceAssignment DEFINITION_PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String name = javaClass.getPackageName();
          return name.equals("io.eventide.definition") || name.startsWith("io.eventide.definition.")
              ? SliceIdentifier.of(name)
              : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the packages of the definition language";
        }
      };

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
        .layer("definition")
        .definedBy("io.eventide.definition..")
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
        .whereLayer("api")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("simulation")
        .mayOnlyBeAccessedByLayers("api")
        .whereLayer("runtime")
        .mayOnlyBeAccessedByLayers("api", "kafka", "ops")
        .whereLayer("core")
        .mayOnlyBeAccessedByLayers("api", "simulation", "runtime", "state", "sink", "kafka", "ops")
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
        .mayOnlyAccessLayers("definition", "engine")
        .whereLayer("definition")
        .mayOnlyAccessLayers("engine")
        .whereLayer("engine")
        .mayNotAccessAnyLayer()
        .check(MAIN);
  }

  /**
   * Reading events from bytes and rendering pane records are the core's two edges: they see the
   * definition they read or render by and the engine's types, never the shards, the runtime or any
   * adapter, so that /simulate, HTTP, Kafka and the stores share them as they are.
   */
  @Test
  void readingAndRenderingSeeOnlyTheDefinitionAndTheEngine() {
    noClasses()
        .that()
        .resideInAnyPackage("io.eventide.core.read..", "io.eventide.core.render..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.eventide..")
                .and(
                    not(
                        resideInAnyPackage(
                            "io.eventide.core.read..",
                            "io.eventide.core.render..",
                            "io.eventide.definition..",
                            "io.eventide.engine.."))))
        .check(MAIN);
  }

  /** Reading does not render and rendering does not read: they meet only in the shard. */
  @Test
  void readingAndRenderingAreApart() {
    noClasses()
        .that()
        .resideInAPackage("io.eventide.core.read..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.eventide.core.render..")
        .check(MAIN);
    noClasses()
        .that()
        .resideInAPackage("io.eventide.core.render..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.eventide.core.read..")
        .check(MAIN);
  }

  /**
   * The definition language's parts build on each other one way: the JSON form on the definitions,
   * the Beam dialects and the Kafka parts; the Beam dialects on the definitions; the definitions on
   * the Kafka parts; the Kafka parts on nothing of the language.
   */
  @Test
  void theDefinitionLanguageHasNoCycles() {
    slices().assignedFrom(DEFINITION_PACKAGES).should().beFreeOfCycles().check(MAIN);
  }

  /** Settings sit beside the feature they configure: there is no package of settings. */
  @Test
  void noPackageOfSettings() {
    noClasses().should().resideInAPackage("io.eventide.config..").check(MAIN);
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.eventide.(*)..").should().beFreeOfCycles().check(MAIN);
  }
}
