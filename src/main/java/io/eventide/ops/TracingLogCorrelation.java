package io.eventide.ops;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * While tracing is off ({@link TracingEnabled}), log lines keep the form they have without it:
 * Micrometer Tracing on the class path would otherwise have Spring Boot pad every line with room
 * for a trace id that never comes. Settings of the operator's own still win. Registered in {@code
 * META-INF/spring.factories}.
 */
public final class TracingLogCorrelation implements EnvironmentPostProcessor {
  private static final String NAME = "eventideTracingOff";

  /** The property source Spring Boot's log correlation adds, last, whose default this overrides. */
  private static final String BOOT_DEFAULT = "logCorrelation";

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    if (TracingEnabled.in(environment)) {
      return;
    }
    MutablePropertySources sources = environment.getPropertySources();
    MapPropertySource off =
        new MapPropertySource(NAME, Map.of("logging.expect-correlation-id", false));
    if (sources.contains(BOOT_DEFAULT)) {
      sources.addBefore(BOOT_DEFAULT, off);
    } else {
      sources.addLast(off);
    }
  }
}
