package io.eventide.deploy;

import java.io.StringReader;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.convert.ApplicationConversionService;

/**
 * config/application.yaml as the application sees it under a set of profiles, optionally with an
 * application.yaml mounted over it (the Kubernetes ConfigMap); later documents win, as in Spring.
 */
final class ApplicationConfig {
  static final String FILE = "config/application.yaml";
  private static final String ON_PROFILE = "spring.config.activate.on-profile";

  private final Map<String, Object> values;

  private ApplicationConfig(Map<String, Object> values) {
    this.values = values;
  }

  /** Every document of config/application.yaml, flattened. */
  static List<Map<String, Object>> documents() {
    return ProjectFiles.yamlDocuments(FILE).stream()
        .map(d -> ProjectFiles.flatten((Map<?, ?>) d))
        .toList();
  }

  static ApplicationConfig of(Collection<String> profiles, String... overlays) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map<String, Object> doc : documents()) {
      Object profile = doc.get(ON_PROFILE);
      if (profile == null || profiles.contains(String.valueOf(profile))) {
        values.putAll(doc);
      }
    }
    for (String overlay : overlays) {
      for (Object doc : ProjectFiles.yamlDocumentsOf(new StringReader(overlay))) {
        values.putAll(ProjectFiles.flatten((Map<?, ?>) doc));
      }
    }
    values.remove(ON_PROFILE);
    return new ApplicationConfig(values);
  }

  static ApplicationConfig defaults() {
    return of(Set.of());
  }

  String get(String name, String fallback) {
    Object v = values.get(name);
    return v == null ? fallback : String.valueOf(v);
  }

  int serverPort() {
    return Integer.parseInt(get("server.port", "8080"));
  }

  /** Where actuator endpoints answer: the management port, else the server port. */
  int managementPort() {
    return Integer.parseInt(get("management.server.port", String.valueOf(serverPort())));
  }

  String actuatorPath(String endpoint) {
    return get("management.endpoints.web.base-path", "/actuator") + "/" + endpoint;
  }

  Duration shutdownTimeout() {
    return ApplicationConversionService.getSharedInstance()
        .convert(get("spring.lifecycle.timeout-per-shutdown-phase", "30s"), Duration.class);
  }
}
