package io.eventide.ops;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.PropertyResolver;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether tracing is on (docs/operations.md#tracing): an OTLP endpoint to export spans to is
 * configured, and Spring Boot's tracing export is not turned off. Off, Spring Boot's tracing is
 * left out altogether ({@link TracingAutoConfigurationFilter}) and nothing of Eventide's exists, so
 * that no request nor commit makes a span.
 */
public final class TracingEnabled implements Condition {
  static final String ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";
  static final String EXPORT = "management.tracing.export.enabled";

  static boolean in(PropertyResolver properties) {
    String endpoint = properties.getProperty(ENDPOINT);
    return endpoint != null
        && !endpoint.isBlank()
        && properties.getProperty(EXPORT, Boolean.class, true);
  }

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return in(context.getEnvironment());
  }
}
