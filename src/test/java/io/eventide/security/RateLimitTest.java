package io.eventide.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;

/** A credential that spends its bucket gets 429 with Retry-After; others are not affected. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.security.enabled=true",
      "eventide.security.rate-limit.per-second=1",
      "eventide.security.rate-limit.burst=3",
      "eventide.security.api-keys[0].name=busy",
      "eventide.security.api-keys[0].sha256=" + SecuredRuntimeTest.READER_SHA,
      "eventide.security.api-keys[0].reader=*",
      "eventide.security.api-keys[1].name=calm",
      "eventide.security.api-keys[1].sha256=" + SecuredRuntimeTest.PRODUCER_SHA,
      "eventide.security.api-keys[1].reader=*"
    })
class RateLimitTest {
  @LocalServerPort int port;

  @Test
  void aSpentBucketAnswers429WithRetryAfter() {
    Http http = new Http(port);
    for (int i = 0; i < 3; i++) {
      assertThat(http.get("/pipelines", SecuredRuntimeTest.READER).status()).isEqualTo(200);
    }
    Http.Reply refused = http.get("/pipelines", SecuredRuntimeTest.READER);
    assertThat(refused.status()).isEqualTo(429);
    assertThat(
            MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(refused.headers().getContentType()))
        .isTrue();
    assertThat(Long.parseLong(refused.headers().getFirst("Retry-After"))).isBetween(1L, 2L);
    assertThat(http.get("/pipelines", SecuredRuntimeTest.PRODUCER).status()).isEqualTo(200);
    // Health probes never count against anyone.
    for (int i = 0; i < 5; i++) {
      assertThat(http.get("/actuator/health/liveness", null).status()).isEqualTo(200);
    }
  }

  @Test
  void theBucketRefillsAtTheConfiguredRate() {
    AtomicLong nanos = new AtomicLong();
    InMemoryRateLimiter limiter = new InMemoryRateLimiter(2, 2, nanos::get);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isTrue();
    RateLimiter.Decision refused = limiter.take("a");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfterSeconds()).isEqualTo(1);
    assertThat(limiter.take("b").allowed()).isTrue();
    nanos.addAndGet(500_000_000L);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isFalse();
    nanos.addAndGet(60_000_000_000L);
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isTrue();
    assertThat(limiter.take("a").allowed()).isFalse();
  }
}
