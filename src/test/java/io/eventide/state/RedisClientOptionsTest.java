package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Eventide's own Lettuce option (refuse commands while disconnected) is added to Spring Boot's, not
 * put in their place: the connect timeout an operator sets still applies.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {"eventide.state.store=redis", "spring.data.redis.connect-timeout=1234ms"})
class RedisClientOptionsTest {
  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("spring.data.redis.url", TestRedis::url);
    registry.add("eventide.state.key-prefix", TestRedis::newKeyPrefix);
  }

  @Autowired LettuceConnectionFactory factory;

  @Test
  void bootsOptionsAndEventidesBothApply() {
    ClientOptions options = factory.getClientConfiguration().getClientOptions().orElseThrow();
    assertThat(options.getDisconnectedBehavior())
        .isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    assertThat(options.getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofMillis(1234));
  }
}
