package io.eventide.ops;

import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves Spring Boot's tracing and OpenTelemetry SDK auto-configuration out while tracing is off
 * ({@link TracingEnabled}). With them on the class path Spring Boot traces every HTTP request
 * whether or not the spans go anywhere (for log correlation), and runs a span processor; off must
 * cost nothing. Registered in {@code META-INF/spring.factories}.
 */
public final class TracingAutoConfigurationFilter
    implements AutoConfigurationImportFilter, EnvironmentAware {
  private static final String[] TRACING = {
    "org.springframework.boot.micrometer.tracing.", "org.springframework.boot.opentelemetry."
  };

  private Environment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public boolean[] match(String[] candidates, AutoConfigurationMetadata metadata) {
    boolean on = TracingEnabled.in(environment);
    boolean[] kept = new boolean[candidates.length];
    for (int i = 0; i < candidates.length; i++) {
      kept[i] = on || candidates[i] == null || !isTracing(candidates[i]);
    }
    return kept;
  }

  private static boolean isTracing(String candidate) {
    for (String prefix : TRACING) {
      if (candidate.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
