package io.eventide.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checks the deployment tests rely on tell bound names from misspelt ones. */
class KnownPropertiesTest {
  private static final KnownProperties KNOWN = KnownProperties.load();

  @Test
  void knowsEventidesSpringsAndMapKeys() {
    assertThat(KNOWN.isKnown("eventide.runtime.shards")).isTrue();
    assertThat(KNOWN.isKnown("server.port")).isTrue();
    assertThat(KNOWN.isKnown("management.endpoint.health.group.readiness.include")).isTrue();
    assertThat(KNOWN.isKnown("logging.level.io.eventide")).isTrue();
    assertThat(KNOWN.isKnown("eventide.runtime.shard")).isFalse();
    assertThat(KNOWN.isKnown("server.prot")).isFalse();
    assertThat(KNOWN.isKnown("eventide.health")).isFalse();
  }

  @Test
  void bindsEnvironmentVariablesAsSpringBootDoes() {
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_RUNTIME_SHARDS")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_HEALTH_WATERMARKSTALL")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_HEALTH_WATERMARK_STALL")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("SPRING_PROFILES_ACTIVE")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("SPRING_KAFKA_PROPERTIES_SASL_MECHANISM")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_SECURITY_APIKEYS_0_SHA256")).isTrue();
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_SECURITY_APIKEY_0_SHA256")).isFalse();
    assertThat(KNOWN.isBoundByEnvironment("EVENTIDE_RUNTIME_SHARD")).isFalse();
    assertThat(KNOWN.isBoundByEnvironment("SPRING_DATA_REDIS_HOSTNAME")).isFalse();
    assertThat(KNOWN.isBoundByEnvironment("JAVA_OPTS")).isFalse();
  }
}
