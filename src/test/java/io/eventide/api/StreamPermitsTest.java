package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.sink.OutputProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Counts of open streams are kept only while streams are open. */
class StreamPermitsTest {
  @Test
  void aCredentialWithNoStreamOpenIsForgotten() {
    OutputProperties properties =
        new Binder(new MapConfigurationPropertySource())
            .bindOrCreate("eventide.outputs", OutputProperties.class);
    StreamPermits permits = new StreamPermits(properties);
    for (int i = 0; i < 1000; i++) {
      permits.acquire("orders", "key:c" + i).run();
    }
    Runnable open = permits.acquire("orders", "key:kept");
    assertThat(permits.tracked()).isEqualTo(2);
    open.run();
    assertThat(permits.tracked()).isZero();
  }
}
