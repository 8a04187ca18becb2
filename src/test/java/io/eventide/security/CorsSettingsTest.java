package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Which CORS origins start the service: named ones, never every origin. */
class CorsSettingsTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Settings.class);

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(SecurityProperties.class)
  static class Settings {}

  @Test
  void everyOriginIsRefusedAtStartUpNamingTheSetting() {
    for (String origins : new String[] {"*", "https://dash.example.com,*"}) {
      runner
          .withPropertyValues("eventide.security.cors.allowed-origins=" + origins)
          .run(
              context -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("eventide.security.cors")
                    .hasMessageContaining("allowedOrigins[")
                    .hasMessageContaining("must name an origin, never *");
              });
    }
  }

  @Test
  void namedOriginsStart() {
    runner
        .withPropertyValues("eventide.security.cors.allowed-origins=https://dash.example.com")
        .run(
            context ->
                assertThat(context.getBean(SecurityProperties.class).cors().allowedOrigins())
                    .containsExactly("https://dash.example.com"));
  }
}
