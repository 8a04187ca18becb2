package io.eventide.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Keeps the engine pure: it must run the same under /simulate, the live runtime and durable state,
 * so it may not reach for a framework, a store, a broker, a JSON library or the wall clock.
 */
class EnginePurityTest {
  private static final JavaClasses ENGINE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.eventide.engine");

  @Test
  void engineDependsOnNoFrameworkStoreBrokerOrJson() {
    noClasses()
        .that()
        .resideInAPackage("io.eventide.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.springframework..",
            "io.lettuce..",
            "redis..",
            "org.apache.kafka..",
            "com.fasterxml.jackson..",
            "tools.jackson..",
            "com.google.gson..",
            "jakarta.json..",
            "reactor..")
        .check(ENGINE);
  }

  @Test
  void engineNeverReadsTheWallClock() {
    noClasses()
        .that()
        .resideInAPackage("io.eventide.engine..")
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .check(ENGINE);
  }
}
